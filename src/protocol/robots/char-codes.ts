/** The character codes the robots.txt readers look for, by name. */
export const TAB = 9;
export const LF = 10;
export const CR = 13;
export const SPACE = 32;
export const HASH = 35;
export const COLON = 58;
export const OPEN_BRACE = 123;
export const CLOSE_BRACE = 125;
