#include "CLibEdit.h"

#if defined(__APPLE__)
/* Linked: the system's libedit. */
#define CALL(name) name
const char *stanzaq_edit_load_error(void) { return NULL; }
static void ensureLoaded(void) {}
#else
/* Loaded on first use: see CLibEdit.h. The soname is Debian's libedit2's
 * (packages declare it: packaging/deb/make-deb.sh). */
#include <dlfcn.h>
#include <pthread.h>

static struct {
    __typeof__(&el_init) el_init;
    __typeof__(&el_end) el_end;
    __typeof__(&el_gets) el_gets;
    __typeof__(&el_wgetc) el_wgetc;
    __typeof__(&el_line) el_line;
    __typeof__(&el_wline) el_wline;
    __typeof__(&el_cursor) el_cursor;
    __typeof__(&el_deletestr) el_deletestr;
    __typeof__(&el_insertstr) el_insertstr;
    __typeof__(&el_winsertstr) el_winsertstr;
    __typeof__(&el_source) el_source;
    __typeof__(&el_set) el_set;
    __typeof__(&el_get) el_get;
    __typeof__(&history_init) history_init;
    __typeof__(&history_end) history_end;
    __typeof__(&history) history;
} edit;
static const char *loadError = "libedit was not loaded";
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libedit.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *message = dlerror();
        loadError = message ? message : "libedit.so.2 could not be loaded";
        return;
    }
#define BIND(name) if (!(edit.name = (__typeof__(edit.name))dlsym(library, #name))) { loadError = "libedit has no " #name; return; }
    BIND(el_init) BIND(el_end) BIND(el_gets) BIND(el_wgetc) BIND(el_line) BIND(el_wline) BIND(el_cursor)
    BIND(el_deletestr) BIND(el_insertstr) BIND(el_winsertstr) BIND(el_source) BIND(el_set) BIND(el_get)
    BIND(history_init) BIND(history_end) BIND(history)
#undef BIND
    loadError = NULL;
}

static void ensureLoaded(void) { pthread_once(&once, load); }

const char *stanzaq_edit_load_error(void) {
    ensureLoaded();
    return loadError;
}

#define CALL(name) edit.name
#endif

/* Every wrapper below is called only after stanzaq_edit_load_error() said NULL. */

EditLine *stanzaq_el_init(const char *program) {
    ensureLoaded();
    return CALL(el_init)(program, stdin, stdout, stderr);
}
void stanzaq_el_end(EditLine *el) { CALL(el_end)(el); }
const char *stanzaq_el_gets(EditLine *el, int *count) { return CALL(el_gets)(el, count); }
int stanzaq_el_wgetc(EditLine *el, wchar_t *character) { return CALL(el_wgetc)(el, character); }
const LineInfo *stanzaq_el_line(EditLine *el) { return CALL(el_line)(el); }
const LineInfoW *stanzaq_el_wline(EditLine *el) { return CALL(el_wline)(el); }
int stanzaq_el_cursor(EditLine *el, int count) { return CALL(el_cursor)(el, count); }
void stanzaq_el_deletestr(EditLine *el, int count) { CALL(el_deletestr)(el, count); }
int stanzaq_el_insertstr(EditLine *el, const char *text) { return CALL(el_insertstr)(el, text); }
int stanzaq_el_winsertstr(EditLine *el, const wchar_t *text) { return CALL(el_winsertstr)(el, text); }
int stanzaq_el_source(EditLine *el, const char *path) { return CALL(el_source)(el, path); }

int stanzaq_el_set_prompt(EditLine *el, stanzaq_prompt_fn fn) { return CALL(el_set)(el, EL_PROMPT, fn); }
int stanzaq_el_set_editor(EditLine *el, const char *mode) { return CALL(el_set)(el, EL_EDITOR, mode); }
int stanzaq_el_set_history(EditLine *el, History *h) { return CALL(el_set)(el, EL_HIST, CALL(history), h); }
int stanzaq_el_add_function(EditLine *el, const char *name, const char *help, stanzaq_command_fn fn) {
    return CALL(el_set)(el, EL_ADDFN, name, help, fn);
}
int stanzaq_el_bind(EditLine *el, const char *key, const char *function) {
    return CALL(el_set)(el, EL_BIND, key, function, NULL);
}
int stanzaq_el_set_getcfn(EditLine *el, stanzaq_getc_fn fn) { return CALL(el_set)(el, EL_GETCFN, fn); }
int stanzaq_el_set_clientdata(EditLine *el, void *data) { return CALL(el_set)(el, EL_CLIENTDATA, data); }
void *stanzaq_el_get_clientdata(EditLine *el) {
    void *data = NULL;
    CALL(el_get)(el, EL_CLIENTDATA, &data);
    return data;
}

History *stanzaq_history_init(void) {
    ensureLoaded();
    return CALL(history_init)();
}
void stanzaq_history_end(History *h) { CALL(history_end)(h); }
int stanzaq_history_set_size(History *h, int size) {
    HistEvent ev;
    return CALL(history)(h, &ev, H_SETSIZE, size);
}
int stanzaq_history_enter(History *h, const char *line) {
    HistEvent ev;
    return CALL(history)(h, &ev, H_ENTER, line);
}
int stanzaq_history_load(History *h, const char *path) {
    HistEvent ev;
    return CALL(history)(h, &ev, H_LOAD, path);
}
int stanzaq_history_save(History *h, const char *path) {
    HistEvent ev;
    return CALL(history)(h, &ev, H_SAVE, path);
}

void stanzaq_print(const char *text) {
    fputs(text, stdout);
    fflush(stdout);
}
