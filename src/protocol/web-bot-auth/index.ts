/** Web Bot Auth and the parts of RFC 9421, RFC 9651 and RFC 7638 it needs: pure. */
export * from "./key-directory.js";
export * from "./message.js";
export * from "./directory-signature.js";
export type { MessageRequest } from "./signature-base.js";
export { signatureBase } from "./signature-base.js";
export { MAX_FIELD_CHARS, MAX_MEMBERS } from "./structured-fields.js";
export {
  readRecordedRequest,
  MAX_RECORDED_FIELDS,
  MAX_RECORDED_HEAD_CHARS,
} from "./recorded-request.js";
