/** The product's name when `APP_NAME` is not set. */
export const DEFAULT_APP_NAME = "Questline";
