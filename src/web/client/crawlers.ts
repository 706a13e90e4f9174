/**
 * Crawler tokens webmasters write groups for, with what each robot's fetches are for, as their
 * operators describe them. A token marked "token only" names no crawler of its own: the
 * operator's search crawler fetches, and the token's group says what the content may be used
 * for.
 */

/** What a robot fetches for: a search index, training AI models, or answers an AI gives now. */
export type CrawlerKind = "search" | "ai-training" | "ai-input";

export interface KnownCrawler {
  readonly token: string;
  readonly operator: string;
  readonly kind: CrawlerKind;
  readonly note: string;
}

export const KIND_TEXT: Readonly<Record<CrawlerKind, string>> = {
  search: "search",
  "ai-training": "AI training",
  "ai-input": "AI input",
};

export const KNOWN_CRAWLERS: readonly KnownCrawler[] = [
  { token: "Googlebot", operator: "Google", kind: "search", note: "Google Search" },
  { token: "Bingbot", operator: "Microsoft", kind: "search", note: "Bing search" },
  { token: "Applebot", operator: "Apple", kind: "search", note: "Siri and Spotlight" },
  { token: "DuckDuckBot", operator: "DuckDuckGo", kind: "search", note: "DuckDuckGo search" },
  { token: "YandexBot", operator: "Yandex", kind: "search", note: "Yandex search" },
  {
    token: "Google-Extended",
    operator: "Google",
    kind: "ai-training",
    note: "token only: Gemini training and grounding",
  },
  {
    token: "Applebot-Extended",
    operator: "Apple",
    kind: "ai-training",
    note: "token only: Apple's model training",
  },
  { token: "GPTBot", operator: "OpenAI", kind: "ai-training", note: "model training" },
  { token: "ClaudeBot", operator: "Anthropic", kind: "ai-training", note: "model training" },
  {
    token: "CCBot",
    operator: "Common Crawl",
    kind: "ai-training",
    note: "open web archive, widely used to train models",
  },
  { token: "Meta-ExternalAgent", operator: "Meta", kind: "ai-training", note: "model training" },
  { token: "Bytespider", operator: "ByteDance", kind: "ai-training", note: "model training" },
  { token: "OAI-SearchBot", operator: "OpenAI", kind: "ai-input", note: "ChatGPT search" },
  {
    token: "ChatGPT-User",
    operator: "OpenAI",
    kind: "ai-input",
    note: "a page a ChatGPT user asks about",
  },
  { token: "Claude-SearchBot", operator: "Anthropic", kind: "ai-input", note: "Claude's search" },
  {
    token: "Claude-User",
    operator: "Anthropic",
    kind: "ai-input",
    note: "a page a Claude user asks about",
  },
  { token: "PerplexityBot", operator: "Perplexity", kind: "ai-input", note: "Perplexity's index" },
  {
    token: "Perplexity-User",
    operator: "Perplexity",
    kind: "ai-input",
    note: "a page a Perplexity user asks about",
  },
];
