/**
 * Text as members type it and as servers must count it: browsers send a textarea's line breaks
 * as CR LF (two characters), so they are made LF (one) before any length is checked, on both
 * sides. Control characters (NUL and the like; tab and line breaks are fine) cannot be stored and
 * are never meant: a form or address holding one is refused.
 */
export const normalizeLineBreaks = (text: string) => text.replace(/\r\n?/g, "\n");

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
export const hasControlCharacter = (text: string) => CONTROL.test(text);
