// Language / Encoding / Charset values: seeds/003 §3.2.9 (its examples) and §3.1 (`Language:
// zh-cn, zh`), RFC 2616 §14.2-§14.4 (the header examples), §3.9 (qvalue), §3.10 (language tags),
// §2.1 (#rule null elements).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  type AcceptItem,
  type AcceptKind,
  firstSupported,
  formatAcceptList,
  parseAcceptList,
} from "../../../../../src/protocol/robots/regp/values/accept-list.js";
import { expectError, expectOk } from "./expect.js";

const RUNS = 500;

const item = (value: string, q = 1): AcceptItem => ({ value, q });

describe("parseAcceptList", () => {
  const CASES: readonly [source: string, kind: AcceptKind, text: string, items: AcceptItem[]][] = [
    ["seeds/003 §3.1", "language", "zh-cn, zh", [item("zh-cn"), item("zh")]],
    ["seeds/003 §3.2.9", "language", "en-us,en", [item("en-us"), item("en")]],
    ["seeds/003 §3.2.9", "encoding", "gzip,deflate", [item("gzip"), item("deflate")]],
    ["seeds/003 §3.2.9", "charset", "gb2312,utf-8", [item("gb2312"), item("utf-8")]],
    ["q-values and *", "charset", "utf-8;q=0.7, *;q=0.1", [item("utf-8", 0.7), item("*", 0.1)]],
    [
      "RFC 2616 §14.4 example",
      "language",
      "da, en-gb;q=0.8, en;q=0.7",
      [item("da"), item("en-gb", 0.8), item("en", 0.7)],
    ],
    ["RFC 2616 §14.3 example", "encoding", "compress, gzip", [item("compress"), item("gzip")]],
    ["RFC 2616 §14.3 example", "encoding", "*", [item("*")]],
    [
      "RFC 2616 §14.3 example",
      "encoding",
      "compress;q=0.5, gzip;q=1.0",
      [item("compress", 0.5), item("gzip", 1)],
    ],
    [
      "RFC 2616 §14.3 example",
      "encoding",
      "gzip;q=1.0, identity; q=0.5, *;q=0",
      [item("gzip"), item("identity", 0.5), item("*", 0)],
    ],
    [
      "RFC 2616 §14.2 example",
      "charset",
      "iso-8859-5, unicode-1-1;q=0.8",
      [item("iso-8859-5"), item("unicode-1-1", 0.8)],
    ],
    ["values are lower-cased", "language", "EN-US", [item("en-us")]],
    ["RFC 2616 §2.1 null elements", "language", "en, , fr,", [item("en"), item("fr")]],
    ["RFC 4647 §2.1 digits after the first subtag", "language", "es-419", [item("es-419")]],
    ["spaces around ; and =, upper-case Q", "charset", "utf-8 ; Q = 0.5", [item("utf-8", 0.5)]],
    ["RFC 2616 §3.9 q=1.000", "encoding", "gzip;q=1.000", [item("gzip")]],
    [
      "RFC 2616 §3.9 q=0 and q=0.001",
      "encoding",
      "gzip;q=0, br;q=0.001",
      [item("gzip", 0), item("br", 0.001)],
    ],
    ["RFC 2616 §3.9 q=0.", "encoding", "gzip;q=0.", [item("gzip", 0)]],
  ];
  for (const [source, kind, text, items] of CASES) {
    it(`${source}: ${kind} ${JSON.stringify(text)}`, () => {
      assert.deepEqual(expectOk(parseAcceptList(text, kind)), items);
    });
  }

  const ERRORS: readonly [why: string, kind: AcceptKind, text: string, mentions: string[]][] = [
    ["empty", "language", "", ["empty value"]],
    ["only commas", "encoding", ", ,", ["only commas"]],
    ["an underscore in a language tag", "language", "en_US", ['"en_US"']],
    ["a nine-letter subtag", "language", "toolongtag", ['"toolongtag"']],
    ["a trailing -", "language", "en-", ['"en-"']],
    ["a language starting with digits", "language", "123", ['"123"']],
    ["a parameter other than q", "encoding", "gzip;level=1", ['"level=1"', "q parameter"]],
    ["q above 1", "charset", "utf-8;q=1.5", ['"1.5"', "0 to 1"]],
    ["q with four decimals", "charset", "utf-8;q=0.1234", ['"0.1234"', "3 decimals"]],
    ["q=1.001", "charset", "utf-8;q=1.001", ['"1.001"']],
    ["an empty q", "charset", "utf-8;q=", ["empty value"]],
    ["q without a leading 0", "charset", "utf-8;q=.5", ['".5"']],
    ["a negative q", "charset", "utf-8;q=-0.5", ['"-0.5"']],
    ["two q parameters", "encoding", "gzip;q=0.5;q=0.6", ['"q=0.6"']],
    ["a space inside a charset", "charset", "utf 8", ['" "', '"utf 8"']],
    ["a separator inside a coding", "encoding", "gzip/deflate", ['"/"', '"gzip/deflate"']],
    ["no value before ;", "encoding", ";q=0.5", ["got nothing"]],
    ["a bare parameter", "language", "en;q", ['"q"']],
  ];
  for (const [why, kind, text, mentions] of ERRORS) {
    it(`refuses ${why}: ${kind} ${JSON.stringify(text)}`, () => {
      expectError(parseAcceptList(text, kind), ...mentions);
    });
  }
});

describe("firstSupported: the site requires one of the values; the robot supports some", () => {
  const CASES: readonly [
    source: string,
    kind: AcceptKind,
    required: string,
    supported: string[],
    expected: string | null,
  ][] = [
    ["seeds/003 §3.1, a robot without Chinese", "language", "zh-cn, zh", ["en"], null],
    ["seeds/003 §3.1, zh-cn ~ zh", "language", "zh-cn, zh", ["zh"], "zh-cn"],
    ["seeds/003 §3.1, exact", "language", "zh-cn, zh", ["ZH-CN"], "zh-cn"],
    ["seeds/003 §3.2.9, en ~ en-gb", "language", "en-us,en", ["en-GB"], "en"],
    ["seeds/003 §3.2.9, no common language", "language", "en-us,en", ["fr", "de"], null],
    ["language prefix needs a -", "language", "zh", ["zhx"], null],
    ["seeds/003 §3.2.9, no common coding", "encoding", "gzip,deflate", ["identity"], null],
    ["seeds/003 §3.2.9, case", "encoding", "gzip,deflate", ["DEFLATE"], "deflate"],
    ["RFC 2616 §3.5 x-gzip is gzip", "encoding", "gzip,deflate", ["x-gzip"], "gzip"],
    ["seeds/003 §3.2.9, utf-8 ~ UTF8", "charset", "gb2312,utf-8", ["UTF8"], "utf-8"],
    ["seeds/003 §3.2.9, utf-8 ~ utf_8", "charset", "gb2312,utf-8", ["utf_8"], "utf-8"],
    ["seeds/003 §3.2.9, no common charset", "charset", "gb2312,utf-8", ["latin1"], null],
    ["* in the requirement", "charset", "utf-8;q=0.7, *;q=0.1", ["iso-8859-1"], "*"],
    ["the better q first", "charset", "utf-8;q=0.7, *;q=0.1", ["iso-8859-1", "utf-8"], "utf-8"],
    ["q order, not list order", "language", "en;q=0.5, fr", ["en", "fr"], "fr"],
    ["q=0 refuses its value even under *", "charset", "*, utf-8;q=0", ["utf-8"], null],
    ["q=0 refuses only its value", "charset", "*, utf-8;q=0", ["utf-8", "latin1"], "*"],
    ["q=0 alone never counts", "encoding", "gzip;q=0", ["gzip"], null],
    ["* on the robot's side", "language", "zh-cn, zh", ["*"], "zh-cn"],
    ["a robot that supports nothing", "encoding", "gzip", [], null],
  ];
  for (const [source, kind, required, supported, expected] of CASES) {
    it(`${source}: ${kind} ${JSON.stringify(required)} with ${JSON.stringify(supported)} → ${expected}`, () => {
      assert.equal(
        firstSupported(expectOk(parseAcceptList(required, kind)), supported, kind),
        expected,
      );
    });
  }
});

describe("formatAcceptList", () => {
  const CASES: readonly [kind: AcceptKind, text: string, formatted: string][] = [
    ["language", "zh-cn,zh", "zh-cn, zh"],
    ["charset", "utf-8;q=0.7, *;q=0.1", "utf-8;q=0.7, *;q=0.1"],
    ["encoding", "gzip;q=1.0, identity; q=0.5, *;q=0", "gzip, identity;q=0.5, *;q=0"],
  ];
  for (const [kind, text, formatted] of CASES) {
    it(`${kind} ${JSON.stringify(text)} → ${JSON.stringify(formatted)}`, () => {
      assert.equal(formatAcceptList(expectOk(parseAcceptList(text, kind))), formatted);
    });
  }

  const q = fc.integer({ min: 0, max: 1000 }).map((n) => n / 1000);
  const VALUES: Readonly<Record<AcceptKind, fc.Arbitrary<string>>> = {
    language: fc.oneof(fc.constant("*"), fc.stringMatching(/^[a-z]{1,8}(-[a-z0-9]{1,8}){0,2}$/)),
    encoding: fc.stringMatching(/^[a-z0-9!#$%&'*+.^_`|~-]{1,12}$/),
    charset: fc.stringMatching(/^[a-z0-9!#$%&'*+.^_`|~-]{1,12}$/),
  };
  for (const kind of ["language", "encoding", "charset"] as const) {
    it(`property: parseAcceptList(formatAcceptList(items), "${kind}") equals items`, () => {
      const items = fc.array(fc.record({ value: VALUES[kind], q }, { noNullPrototype: true }), {
        minLength: 1,
        maxLength: 5,
      });
      fc.assert(
        fc.property(items, (list) => {
          assert.deepEqual(expectOk(parseAcceptList(formatAcceptList(list), kind)), list);
        }),
        { numRuns: RUNS },
      );
    });
  }
});
