#ifndef STANZAQ_CLIBEDIT_H
#define STANZAQ_CLIBEDIT_H

#include <stdio.h>
#include <locale.h>
#include <wchar.h>
#include <histedit.h>

/* libedit for the REPL's line editor. On Linux it is loaded when the REPL
 * first needs it (CLibEdit.c): a search never edits a line, and loading
 * libedit with its libraries at every start slowed every start-up for
 * nothing. Swift calls these wrappers, never libedit's own functions (which
 * are declared by <histedit.h> for its types, and not linked on Linux).
 * el_set() and history() are variadic, which Swift cannot call: the wrappers
 * take the few forms stanzaq uses. */

typedef char *(*stanzaq_prompt_fn)(EditLine *);
typedef unsigned char (*stanzaq_command_fn)(EditLine *, int);
typedef int (*stanzaq_getc_fn)(EditLine *, wchar_t *);

/* NULL once libedit is loaded, else why it could not be. */
const char *stanzaq_edit_load_error(void);

EditLine *stanzaq_el_init(const char *program);
void stanzaq_el_end(EditLine *el);
const char *stanzaq_el_gets(EditLine *el, int *count);
int stanzaq_el_wgetc(EditLine *el, wchar_t *character);
const LineInfo *stanzaq_el_line(EditLine *el);
const LineInfoW *stanzaq_el_wline(EditLine *el);
int stanzaq_el_cursor(EditLine *el, int count);
void stanzaq_el_deletestr(EditLine *el, int count);
int stanzaq_el_insertstr(EditLine *el, const char *text);
int stanzaq_el_winsertstr(EditLine *el, const wchar_t *text);
int stanzaq_el_source(EditLine *el, const char *path);
int stanzaq_el_set_prompt(EditLine *el, stanzaq_prompt_fn fn);
int stanzaq_el_set_editor(EditLine *el, const char *mode);
int stanzaq_el_set_history(EditLine *el, History *h);
int stanzaq_el_add_function(EditLine *el, const char *name, const char *help, stanzaq_command_fn fn);
int stanzaq_el_bind(EditLine *el, const char *key, const char *function);
/* EL_GETCFN: how libedit reads a character from the terminal. */
int stanzaq_el_set_getcfn(EditLine *el, stanzaq_getc_fn fn);
/* EL_CLIENTDATA: the editor's Swift object, found again in its C callbacks. */
int stanzaq_el_set_clientdata(EditLine *el, void *data);
void *stanzaq_el_get_clientdata(EditLine *el);

History *stanzaq_history_init(void);
void stanzaq_history_end(History *h);
int stanzaq_history_set_size(History *h, int size);
int stanzaq_history_enter(History *h, const char *line);
int stanzaq_history_load(History *h, const char *path);
int stanzaq_history_save(History *h, const char *path);

/* stdout is a mutable C global, which Swift 6 will not touch. */
void stanzaq_print(const char *text);

#endif
