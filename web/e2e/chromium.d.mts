// Types of chromium.mjs, shared with the plain-JavaScript perf report.
export declare const CHROMIUM_PATH: string;
export declare const HEADLESS_SHELL_PATH: string;
export declare const CHROMIUM_FLAGS: string[];
