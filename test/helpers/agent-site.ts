/**
 * seeds/000 §4's fictional site on disk: /, /services/, /home/user1/, /home/user2/ and
 * /home/user3/, each with an index.html, plus a few pages that tests aim at (a private page
 * robots.txt forbids, a symlink out of a subtree, a symlink out of the root).
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface AgentSite {
  /** The document root. */
  readonly root: string;
  /** A directory outside the root holding a secret. */
  readonly outside: string;
  /** Page path → HTML, for every page written. */
  readonly pages: ReadonlyMap<string, string>;
  cleanup(): Promise<void>;
}

export const SITE_PAGES: Readonly<Record<string, string>> = {
  "/index.html":
    '<html><head><title>Fict</title></head><body>Home <a href="/services/">services</a></body></html>',
  "/services/index.html": "<title>Services</title><p>What we do.</p>",
  "/home/user1/index.html":
    '<title>User &amp; one</title><p>Hello from user one.</p><a href="sub/a.html">a</a> <a href="../user2/">two</a> <a href="https://other.example/x#top">other</a>',
  "/home/user1/sub/a.html": "<title>A</title><script>var hidden = 1;</script>Deep page",
  "/home/user1/private/p.html": "<title>Private</title>not for robots",
  "/home/user1/notes.txt": "plain   text\nnotes",
  "/home/user2/index.html": '<title>User two</title><a href="/home/user2/b.html">b</a>',
  "/home/user2/b.html": "<title>B</title>",
  "/home/user3/index.html": "<title>User three</title>",
};

export async function makeAgentSite(): Promise<AgentSite> {
  const base = await mkdtemp(join(tmpdir(), "heed-agent-site-"));
  const root = join(base, "www");
  const outside = join(base, "outside");
  await mkdir(outside, { recursive: true });
  await writeFile(join(outside, "secret.txt"), "outside the root");
  for (const [path, html] of Object.entries(SITE_PAGES)) {
    const file = join(root, path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, html);
  }
  // A symlink from user1's subtree into user2's, and one out of the document root.
  await symlink(join(root, "home/user2/b.html"), join(root, "home/user1/to-user2.html"));
  await symlink(join(outside, "secret.txt"), join(root, "home/user1/to-outside.txt"));
  return {
    root,
    outside,
    pages: new Map(Object.entries(SITE_PAGES)),
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

/** The seed's robots.txt with its hosts replaced by the test's agent hosts. */
export function seedRobots(user1: string, user2: string, extra = ""): string {
  return [
    "User-agent: *",
    "Disallow: /home/user1/private/",
    extra,
    "Mobile-agent-server: /             none",
    "Mobile-agent-server: /home/        none",
    `Mobile-agent-server: /home/user1/  ${user1}`,
    `Mobile-agent-server: /home/user2/  ${user2}`,
    "",
  ].join("\n");
}
