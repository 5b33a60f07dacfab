import { createContext } from "react-router";

/** The Content-Security-Policy nonce of this response, for the inline scripts React Router renders. */
export const nonceContext = createContext<string>("");
