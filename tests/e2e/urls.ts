/** Where the e2e servers listen; shared by playwright.config.ts and the fixtures. */
export const APP_PORT = 3100;
export const APP_URL = `http://localhost:${APP_PORT}`;
export const SMTP_PORT = 2526;
export const INBOX_PORT = 3199;
export const INBOX_URL = `http://127.0.0.1:${INBOX_PORT}`;
