import { parseRobots } from "heed";

const robotsTxt = `
User-agent: *
Disallow: /private/
Allow: /private/press/
Crawl-delay: 2
Sitemap: https://example.com/sitemap.xml
`;

// Parse once (RFC 9309 unless the file says `Robot-version: 1.0`, `2.0` or `3.0`) …
const policy = parseRobots(robotsTxt, { origin: "https://example.com" });

// … then ask as often as you like. Every answer says why.
const decision = policy.check(
  "https://example.com/private/press/2026.html",
  "MyBot/1.2 (+https://example.org/bot)",
);
console.log(decision.allowed, decision.reason, decision.line, decision.rule);
// → true rule 4 Allow: /private/press/

console.log(policy.isAllowed("https://example.com/private/x", "MyBot")); // false
console.log(policy.crawlDelay("MyBot")); // 2
console.log(policy.sitemaps.map((s) => s.url)); // [ 'https://example.com/sitemap.xml' ]
