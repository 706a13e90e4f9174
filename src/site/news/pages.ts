/**
 * The news site's pages (seeds/003 §4.1, Fig. 1) as HTML text. Pure: what to show in, markup
 * out. Every value that came from a user is escaped.
 */
import type { NewsComment, NewsItem } from "./content.js";

export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

export function itemPath(id: number): string {
  return `/newsItem.do?id=${id}`;
}

/** seeds/003 §4.1: "a static web page snapshot is … maintained at /html/". */
export function snapshotPath(id: number): string {
  return `/html/news${id}.html`;
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function stamp(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

function layout(title: string, body: string, user: string | null, head = ""): string {
  const who =
    user === null
      ? `<a href="/login.do">Log in</a> · <a href="/reg.do">Register</a>`
      : `Logged in as ${escapeHtml(user)} · <form method="post" action="/logout.do" style="display:inline"><button>Log out</button></form>`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)} - Example News</title>${head}</head>
<body>
<header><a href="/">Example News</a> · <a href="/news.do">News search</a> · ${who}</header>
<main>
${body}
</main>
</body>
</html>
`;
}

function newsList(items: readonly NewsItem[]): string {
  if (items.length === 0) return "<p>No news.</p>";
  const rows = items.map(
    (item) =>
      `<li><a href="${itemPath(item.id)}">${escapeHtml(item.title)}</a> <small>${day(item.releasedAt)}</small></li>`,
  );
  return `<ul class="news">\n${rows.join("\n")}\n</ul>`;
}

/** `/`: links to login, registration, news search and news release, and the latest news. */
export function homePage(latest: readonly NewsItem[], user: string | null): string {
  return layout(
    "Home",
    `<h1>Example News</h1>
<nav><ul>
<li><a href="/login.do">Login</a></li>
<li><a href="/reg.do">Registration</a></li>
<li><a href="/news.do">News search</a></li>
<li><a href="/newsRelease.do">News release</a></li>
</ul></nav>
<h2>Latest news</h2>
${newsList(latest)}`,
    user,
  );
}

export function loginPage(next: string, error: string | null): string {
  return layout(
    "Login",
    `<h1>Login</h1>
${error === null ? "" : `<p class="error">${escapeHtml(error)}</p>`}
<form method="post" action="/login.do">
<input type="hidden" name="next" value="${escapeHtml(next)}">
<label>User <input name="user" autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button>Log in</button>
</form>
<p>No account yet? <a href="/reg.do">Register</a>.</p>`,
    null,
  );
}

export function registrationPage(error: string | null): string {
  return layout(
    "Registration",
    `<h1>Registration</h1>
${error === null ? "" : `<p class="error">${escapeHtml(error)}</p>`}
<form method="post" action="/reg.do">
<label>User <input name="user" autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="new-password"></label>
<button>Register</button>
</form>`,
    null,
  );
}

/**
 * `/news.do`: the latest news and a search form. Results (`results` not null) come only from
 * the form: no link leads to them, so a crawler that follows links never sees older news.
 */
export function newsPage(
  latest: readonly NewsItem[],
  query: string,
  results: readonly NewsItem[] | null,
  user: string | null,
): string {
  const found =
    results === null ? "" : `<h2>Results for “${escapeHtml(query)}”</h2>\n${newsList(results)}`;
  return layout(
    "News search",
    `<h1>News search</h1>
<form method="get" action="/news.do">
<label>Words <input name="q" value="${escapeHtml(query)}"></label>
<button>Search</button>
</form>
${found}
<h2>Latest news</h2>
${newsList(latest)}`,
    user,
  );
}

/**
 * `/newsItem.do?id=N`: the text only. The comments are loaded by an Ajax call once the text is
 * in (seeds/003 §4.1), so they are not in this HTML: a crawler that runs no script misses them.
 */
export function itemPage(item: NewsItem, user: string | null): string {
  const form =
    user === null
      ? `<p><a href="/login.do">Log in</a> to comment.</p>`
      : `<form method="post" action="/comment.do">
<input type="hidden" name="id" value="${item.id}">
<label>Comment <textarea name="text"></textarea></label>
<button>Post</button>
</form>`;
  // The endpoint is named only inside the script, as on Ajax pages: no link leads to it.
  const script = `<script>
window.addEventListener("load", function () {
  fetch("/comments.do?id=${item.id}").then(function (r) { return r.json(); }).then(function (list) {
    var ul = document.getElementById("comments");
    ul.textContent = "";
    list.forEach(function (c) {
      var li = document.createElement("li");
      li.textContent = c.author + ": " + c.text;
      ul.appendChild(li);
    });
  });
});
</script>`;
  return layout(
    item.title,
    `<article>
<h1>${escapeHtml(item.title)}</h1>
<p><small>${day(item.releasedAt)}</small></p>
<p>${escapeHtml(item.text)}</p>
</article>
<h2>Comments</h2>
<ul id="comments"><li>Loading comments…</li></ul>
${form}`,
    user,
    script,
  );
}

function commentList(comments: readonly NewsComment[]): string {
  if (comments.length === 0) return "<p>No comments yet.</p>";
  const rows = comments.map(
    (c) =>
      `<li class="comment"><b>${escapeHtml(c.author)}</b> <small>${stamp(c.at)}</small>: ${escapeHtml(c.text)}</li>`,
  );
  return `<ul id="comments">\n${rows.join("\n")}\n</ul>`;
}

/**
 * `/html/newsN.html`: the crawler page of seeds/003 §3.2.12 — the same content as the item page
 * with its comments in the HTML, no asynchronous loading, so one request gets it all.
 */
export function snapshotPage(item: NewsItem, origin: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(item.title)} - Example News</title>
<link rel="canonical" href="${escapeHtml(origin + itemPath(item.id))}"></head>
<body>
<article>
<h1>${escapeHtml(item.title)}</h1>
<p><small>${day(item.releasedAt)}</small></p>
<p>${escapeHtml(item.text)}</p>
</article>
<h2>Comments</h2>
${commentList(item.comments)}
<p><a href="${itemPath(item.id)}">The page for readers</a></p>
</body>
</html>
`;
}

/** `/newsRelease.do` for an administrator: the release form. */
export function releasePage(error: string | null, user: string): string {
  return layout(
    "News release",
    `<h1>News release</h1>
${error === null ? "" : `<p class="error">${escapeHtml(error)}</p>`}
<form method="post" action="/newsRelease.do">
<label>Title <input name="title"></label>
<label>Text <textarea name="text"></textarea></label>
<button>Release</button>
</form>`,
    user,
  );
}

/** Any other answer: a heading and a sentence, with a link to go on. */
export function messagePage(title: string, message: string, user: string | null): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`, user);
}
