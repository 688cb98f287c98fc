#include <stdio.h>
#include <locale.h>
#include <histedit.h>

/* el_set() and history() are variadic, which Swift cannot call: these wrap
 * the few forms stanzaq uses. */

typedef char *(*stanzaq_prompt_fn)(EditLine *);
typedef unsigned char (*stanzaq_command_fn)(EditLine *, int);
typedef int (*stanzaq_getc_fn)(EditLine *, wchar_t *);

static inline int stanzaq_el_set_prompt(EditLine *el, stanzaq_prompt_fn fn) {
    return el_set(el, EL_PROMPT, fn);
}
static inline int stanzaq_el_set_editor(EditLine *el, const char *mode) {
    return el_set(el, EL_EDITOR, mode);
}
static inline int stanzaq_el_set_history(EditLine *el, History *h) {
    return el_set(el, EL_HIST, history, h);
}
static inline int stanzaq_el_add_function(EditLine *el, const char *name, const char *help, stanzaq_command_fn fn) {
    return el_set(el, EL_ADDFN, name, help, fn);
}
static inline int stanzaq_el_bind(EditLine *el, const char *key, const char *function) {
    return el_set(el, EL_BIND, key, function, NULL);
}
/* EL_GETCFN: how libedit reads a character from the terminal. */
static inline int stanzaq_el_set_getcfn(EditLine *el, stanzaq_getc_fn fn) {
    return el_set(el, EL_GETCFN, fn);
}
/* EL_CLIENTDATA: the editor's Swift object, found again in its C callbacks. */
static inline int stanzaq_el_set_clientdata(EditLine *el, void *data) {
    return el_set(el, EL_CLIENTDATA, data);
}
static inline void *stanzaq_el_get_clientdata(EditLine *el) {
    void *data = NULL;
    el_get(el, EL_CLIENTDATA, &data);
    return data;
}
static inline int stanzaq_history_set_size(History *h, int size) {
    HistEvent ev;
    return history(h, &ev, H_SETSIZE, size);
}
static inline int stanzaq_history_enter(History *h, const char *line) {
    HistEvent ev;
    return history(h, &ev, H_ENTER, line);
}
static inline int stanzaq_history_load(History *h, const char *path) {
    HistEvent ev;
    return history(h, &ev, H_LOAD, path);
}
static inline int stanzaq_history_save(History *h, const char *path) {
    HistEvent ev;
    return history(h, &ev, H_SAVE, path);
}
/* stdin, stdout and stderr are mutable C globals, which Swift 6 will not touch. */
static inline EditLine *stanzaq_el_init(const char *program) {
    return el_init(program, stdin, stdout, stderr);
}
static inline void stanzaq_print(const char *text) {
    fputs(text, stdout);
    fflush(stdout);
}
