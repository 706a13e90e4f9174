/**
 * Hostile hosts and canaries for the SSRF tests, run inside a network namespace of their own
 * (test/hostile/ssrf-netns.test.ts) with `node hostile-hosts.js --serve`:
 *
 * - the hostile site on PUBLIC_ADDRESS:80, a public-looking address on the namespace's `lo`,
 *   under many names (the namespace's /etc/hosts maps them). Host `tN.hostile.example` answers
 *   every path with a redirect to TARGETS[N]; host `dN.hostile.example` serves an open robots.txt
 *   naming a sitemap and redirects every other path to TARGETS[N]; path `/to/N/…` on any host
 *   redirects to TARGETS[N], and `/index.xml` is a sitemap index listing `/to/N/child.xml` for
 *   every N; `badloc.hostile.example` redirects to `http://[::1` (not a URL);
 *   `control.hostile.example` redirects to CONTROL_TARGET, a public address, which must be
 *   reached: it proves that redirects are followed and that hits are seen.
 * - canaries on 127.0.0.1:80, 169.254.169.254:80, [::1]:80 and [::]:8080 (every address of the
 *   namespace). Each request a canary receives is printed on standard output as a JSON line
 *   `{"hit":{"local":…,"host":…,"path":…}}`; `{"ready":true}` once everything listens, and
 *   `{"synced":true}` for each line `sync` on standard input.
 *
 * Imported by the test for its constants; it serves only when run with `--serve`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";

/** Not in any special-purpose range (address-guard.ts), so the guard lets it through. */
export const PUBLIC_ADDRESS = "11.0.0.1";
export const CANARY_PORT = 8080;
export const CONTROL_TARGET = `http://public.example:${CANARY_PORT}/control-landed`;

/** Every spelling of a private address a redirect may name (issue 14 §1). */
export const TARGETS: readonly string[] = [
  "http://127.0.0.1/canary",
  "http://2130706433/canary",
  "http://0x7f000001/canary",
  "http://0177.0.0.1/canary",
  "http://127.1/canary",
  "http://0/canary",
  "http://0.0.0.0/canary",
  "http://[::]/canary",
  "http://[::1]/canary",
  "http://[::ffff:127.0.0.1]/canary",
  "http://[::ffff:7f00:1]/canary",
  "http://[0:0:0:0:0:ffff:a9fe:a9fe]/latest/meta-data/",
  "http://169.254.169.254/latest/meta-data/",
  "http://2852039166/latest/meta-data/",
  "http://inside.example/canary",
  "http://localhost/canary",
  `http://127.0.0.1:${CANARY_PORT}/canary`,
  // Two hops: a public host first, then the metadata address.
  "http://t12.hostile.example/hop",
];

/** The namespace's /etc/hosts. */
export function hostsFile(): string {
  const names = ["public.example", "control.hostile.example", "badloc.hostile.example"];
  for (let n = 0; n < TARGETS.length; n++)
    names.push(`t${n}.hostile.example`, `d${n}.hostile.example`);
  return [
    "127.0.0.1 localhost",
    "::1 localhost",
    `${PUBLIC_ADDRESS} ${names.join(" ")}`,
    // A name that resolves to loopback: the guard judges the address, not the name.
    "127.0.0.1 inside.example",
    "",
  ].join("\n");
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location, "content-type": "text/plain" });
  res.end(`moved to ${location}\n`);
}

function hostile(req: IncomingMessage, res: ServerResponse): void {
  const host = (req.headers.host ?? "").replace(/:\d+$/, "");
  const path = req.url ?? "/";
  const byPath = /^\/to\/(\d+)\//.exec(path);
  const byHost = /^([td])(\d+)\.hostile\.example$/.exec(host);
  if (path === "/index.xml") {
    const entries = TARGETS.map(
      (_, n) => `<sitemap><loc>http://${host}/to/${n}/child.xml</loc></sitemap>`,
    );
    res.writeHead(200, { "content-type": "application/xml" });
    res.end(
      `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join("\n")}\n</sitemapindex>\n`,
    );
    return;
  }
  if (byPath !== null) return redirect(res, TARGETS[Number(byPath[1])] ?? TARGETS[0] ?? "");
  if (host === "badloc.hostile.example") return redirect(res, "http://[::1");
  if (host === "control.hostile.example") return redirect(res, CONTROL_TARGET);
  if (byHost !== null) {
    const target = TARGETS[Number(byHost[2])] ?? TARGETS[0] ?? "";
    if (byHost[1] === "d" && path === "/robots.txt") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(`User-agent: *\nAllow: /\nSitemap: http://${host}/sitemap.xml\n`);
      return;
    }
    return redirect(res, target);
  }
  res.writeHead(404);
  res.end("not found\n");
}

function canary(req: IncomingMessage, res: ServerResponse): void {
  const hit = { local: req.socket.localAddress, host: req.headers.host, path: req.url };
  process.stdout.write(`${JSON.stringify({ hit })}\n`);
  // What a metadata endpoint or an admin page would hand out, and a robots.txt that parses.
  res.writeHead(200, { "content-type": "text/plain" });
  res.end(
    "User-agent: *\nDisallow: /secret-canary-body\nMobile-agent-server: / atp://canary.example:434\n",
  );
}

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  host: string,
  port: number,
): Promise<void> {
  const server = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ host, port, ipv6Only: false }, resolve);
  });
}

async function serve(): Promise<void> {
  await listen(hostile, PUBLIC_ADDRESS, 80);
  await listen(canary, "127.0.0.1", 80);
  await listen(canary, "169.254.169.254", 80);
  await listen(canary, "::1", 80);
  await listen(canary, "::", CANARY_PORT);
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  // "sync" on standard input: every hit before it has been printed. Ends when the test closes
  // standard input (or kills the namespace's processes).
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (text: string) => {
    for (const line of text.split("\n"))
      if (line === "sync") process.stdout.write(`${JSON.stringify({ synced: true })}\n`);
  });
  process.stdin.on("end", () => process.exit(0));
}

if (process.argv[2] === "--serve") await serve();
