import assert from "node:assert/strict";
import { test } from "node:test";
import { originOf } from "../../src/crawler/url-normal.js";

/** What the URL parser says, or the error's name when it refuses the text. */
function parsed(url: string): string {
  try {
    return new URL(url).origin;
  } catch (error) {
    return `throws ${(error as Error).name}`;
  }
}

function read(url: string): string {
  try {
    return originOf(url);
  } catch (error) {
    return `throws ${(error as Error).name}`;
  }
}

// originOf reads plain origins off the text: every case must agree with the parser.
const CASES = [
  "http://a/",
  "http://a",
  "https://example.com/x?y#z",
  "http://example.com?x",
  "http://example.com#x",
  "https://example.com:8443/p",
  "https://example.com:443/p",
  "http://example.com:80/p",
  "https://example.com:80/p",
  "http://example.com:0080/p",
  "http://example.com:65535/",
  "http://example.com:65536/",
  "http://example.com:99999/",
  "http://EXAMPLE.com/",
  "HTTP://example.com/",
  "http://user:pw@example.com/",
  "http://127.0.0.2:43363/p/1",
  "http://127.0.0.256/",
  "http://127.1/",
  "http://0x7f.0.0.1/",
  "http://a.0x/",
  "http://a.0xg/",
  "http://1.2.3.com/",
  "http://a.1/",
  "http://09.1.1.1/",
  "http://010.1.1.1/",
  "http://1.2.3.4.5/",
  "http://127.0.0.1./",
  "http://a..b/",
  "http://-a-.b/",
  "http://xn--nxasmq6b.com/",
  "http://a.xn--zz/",
  "http://xn--/",
  "http://ex_ample.com/",
  "http://ex%41mple.com/",
  "http://é.com/",
  " http://a/",
  "http://a\t.com/",
  "http:\\\\a/",
  "http:/a/",
  "ftp://a/",
  "file:///etc/passwd",
  "http://a:/",
  "http://a:1:2/",
  "http://[::1]:8080/",
  "not a url",
];

test("originOf agrees with the URL parser", () => {
  for (const url of CASES) assert.equal(read(url), parsed(url), JSON.stringify(url));
});

test("originOf agrees with the URL parser on generated hosts and ports", () => {
  const labels = ["a", "0", "1", "255", "256", "0x1", "0x", "xn--a", "a-b", "00", "07", ""];
  const ports = ["", ":0", ":1", ":80", ":443", ":08", ":65535", ":70000"];
  let count = 0;
  for (const scheme of ["http", "https"])
    for (const x of labels)
      for (const y of labels)
        for (const port of ports) {
          const url = `${scheme}://${x}.${y}${port}/p`;
          assert.equal(read(url), parsed(url), url);
          count++;
        }
  assert.equal(count, 2 * labels.length ** 2 * ports.length);
});
