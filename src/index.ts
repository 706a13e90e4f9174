export * from "./protocol/robots/index.js";
