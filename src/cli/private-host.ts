/** Commands ask whether the user named a private host; the rule lives with the guard in net/. */
export { isPrivateHost } from "../net/address-guard.js";
