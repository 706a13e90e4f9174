/**
 * The only script the host runs in an agent's VM before the agent's own: it receives the one
 * host function, keeps it in a closure (no global names it), and defines a frozen global `heed`.
 * JSON.parse and JSON.stringify are captured first, so an agent that replaces them later
 * changes nothing but its own view. Arguments cross the boundary as JSON text only.
 */
export const PRELUDE = `(function (call) {
  "use strict";
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const freeze = Object.freeze;
  const invoke = (op, args) => parse(call(op, stringify(args)));
  const info = freeze(invoke("info", []));
  const heed = freeze({
    info,
    list: (path) => invoke("list", [String(path)]),
    read: (path) => invoke("read", [String(path)]),
    emit: (record) => { invoke("emit", [record]); },
    getState: () => invoke("getState", []),
    setState: (value) => { invoke("setState", [value === undefined ? null : value]); },
    moveTo: (url, path) => { invoke("moveTo", [String(url), path === undefined ? null : String(path)]); },
    receive: () => invoke("receive", []),
  });
  Object.defineProperty(globalThis, "heed", { value: heed, writable: false, enumerable: false, configurable: false });
})`;
