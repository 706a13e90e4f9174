/**
 * Examples shown at the end of each command's `--help`, one table so that every command has
 * some and a test can check it (test/cli/help.test.ts).
 */
import type { Command } from "commander";

export const EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  check: [
    "heed check robots.txt --agent MyBot --url https://example.com/private/x",
    "heed check https://example.com/ --agent MyBot --url /private/x --json",
    "heed check robots.txt --queries queries.tsv --json    # agent<TAB>url a line",
    "heed check --batch batch.tsv                           # robots-file<TAB>agent<TAB>url a line",
    "heed check robots.txt --agent MyBot --url /post/1 --purpose train-ai --json",
  ],
  lint: [
    "heed lint robots.txt",
    "heed lint https://example.com/robots.txt --json",
    "heed lint public/data.txt                              # a file named data.txt is a /data.txt",
  ],
  sitemap: [
    "heed sitemap sitemap.xml.gz --json",
    "heed sitemap https://example.com/ --discover --follow --count",
    "heed sitemap out/sitemap.xml --url https://example.com/sitemap.xml --follow",
  ],
  "sitemap build": [
    "heed sitemap build urls.txt --out public/ --base https://example.com/",
    "heed sitemap build entries.jsonl --out public/ --gzip --max-urls 10000 --json",
  ],
  "sitemap update": [
    "heed sitemap update public/sitemap.xml --loc https://example.com/news/7.html --lastmod now",
    "heed sitemap update public/sitemap.xml --loc https://example.com/html/news7.html --type data --srcloc https://example.com/newsItem.do?id=7",
  ],
  crawl: [
    "heed crawl https://example.com/ --agent MyBot",
    "heed crawl https://example.com/ --agent MyBot --out warc/ --max-pages 500",
    "heed crawl --queued --agent MyBot --store crawl.db      # what RUP reports queued",
    "heed crawl https://example.com/ --agent MyBot --purpose train-ai --out warc/",
    "heed crawl https://example.com/ --agent MyBot --sign bot.jwk --signature-agent https://bot.example/",
  ],
  report: ["heed report", "heed report --store crawl.db --html report.html"],
  export: ["heed export > log.jsonl", "heed export --format csv --out log.csv"],
  datasets: [
    "heed datasets https://example.com/ --agent MyBot",
    "heed datasets https://example.com/ --agent MyBot --download data/",
  ],
  usage: ["heed usage build usage.json --robots public/robots.txt --tdmrep tdmrep.json"],
  "usage build": [
    "heed usage build usage.json                          # print the robots.txt lines",
    "heed usage build usage.json --robots public/robots.txt --tdmrep tdmrep.json",
  ],
  "datasets build": [
    "heed datasets build public/",
    "heed datasets build public/ --manifests --json",
  ],
  serve: [
    "heed serve ./site --port 8080",
    "heed serve ./site --rup --smtp smtp://127.0.0.1:2525 --from rup@example.org",
    "heed serve --demo news --port 8089 --robots regp",
    "heed serve ./site --usage usage.json                  # Content-Usage headers, tdmrep.json",
    "heed serve ./site --verify-bots --require-signature '/*'   # 401 to robots not verified",
  ],
  rup: ["heed rup info https://example.com/", "heed help rup register"],
  "rup info": ["heed rup info https://example.com/ --json"],
  "rup register": [
    "heed rup register https://example.com/ --email robot@example.org --latency day",
    "heed rup register https://example.com/ --email https://robot.example.org/hook",
  ],
  "rup modify": ["heed rup modify https://example.com/ --latency week"],
  "rup unregister": ["heed rup unregister https://example.com/ --json"],
  "rup seq": ["heed rup seq https://example.com/   # exit 1 when reports were lost"],
  "rup key": ["heed rup key https://example.com/"],
  "rup index": ["heed rup index https://example.com/ --span 2-week --json"],
  "rup inbox": ["heed rup inbox --listen 127.0.0.1:2525 --check-every 15"],
  agents: ["heed help agents resolve"],
  "agents resolve": [
    "heed agents resolve robots.txt --url https://example.com/home/user1/",
    "heed agents resolve https://example.com/ --url /blog/post.html --json",
  ],
  "agents host": [
    "heed agents host --root ./site --listen 127.0.0.1:4434",
    "heed agents host --root ./site --site https://example.com/ --assign /home/",
  ],
  "agents dispatch": [
    "heed agents dispatch atp://127.0.0.1:4434 --site https://example.com/ --path /home/user1/",
  ],
  keys: ["heed keys new bot.jwk", "heed help keys directory"],
  "keys new": ["heed keys new bot.jwk                                  # prints the keyid"],
  "keys directory": [
    "heed keys directory bot.jwk --out public/.well-known/http-message-signatures-directory",
  ],
  "verify-request": [
    "heed verify-request request.txt",
    "heed verify-request request.txt --key bot.jwk --at 2026-11-27T08:00:00Z --json",
  ],
  demo: ["heed demo", "heed demo --json --items 10"],
  ui: [
    "heed ui --open                 # the tester at http://127.0.0.1:8377/",
    "heed ui --store heed-crawl.db  # and the crawl in that store, live",
  ],
  completion: [
    "heed completion bash > ~/.local/share/bash-completion/completions/heed",
    "heed completion zsh > ~/.zfunc/_heed",
    "heed completion fish > ~/.config/fish/completions/heed.fish",
  ],
};

/** The command's path below `heed`: "sitemap build". */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c !== null && c.parent !== null; c = c.parent)
    names.unshift(c.name());
  return names.join(" ");
}

/** Adds an "Examples:" section to the help of every command the table names. */
export function addExamples(program: Command): void {
  const walk = (command: Command): void => {
    const lines = EXAMPLES[commandPath(command)];
    if (lines !== undefined) {
      command.addHelpText("after", `\nExamples:\n${lines.map((l) => `  $ ${l}`).join("\n")}\n`);
    }
    for (const sub of command.commands) walk(sub);
  };
  for (const command of program.commands) walk(command);
}
