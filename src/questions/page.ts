// The inbox page's HTML and CSS: static text with no server data in it (the script fetches the questions).
export { INBOX_SCRIPT } from './page-script';

export const INBOX_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Inbox · questions waiting for you</title>
<link rel="stylesheet" href="/_frontmcp/inbox/app.css">
<script src="/_frontmcp/inbox/app.js" defer></script>
</head>
<body>
<header>
  <h1>Inbox</h1>
  <p id="who" class="who">Signing in…</p>
  <p id="live" class="live" aria-live="polite">connecting</p>
</header>
<main>
  <p id="status" class="status" role="status"></p>
  <section id="questions" aria-label="Questions waiting for an answer"></section>
  <p id="empty" class="empty" hidden>No questions are waiting for you. New ones appear here as they are asked.</p>
  <section id="done" class="done" aria-label="What happened" hidden>
    <h2>Answered</h2>
    <ol id="log"></ol>
  </section>
</main>
</body>
</html>
`;

export const INBOX_CSS = `:root { color-scheme: light dark; --fg: #1d2330; --muted: #5b6476; --line: #d8dce5; --card: #fff; --bg: #f4f6fa;
  --accent: #2456d6; --ok: #137a3a; --warn: #9a5b00; --bad: #b42318; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
@media (prefers-color-scheme: dark) { :root { --fg: #e7eaf1; --muted: #a3abbd; --line: #3a4152; --card: #1e2330; --bg: #141821; --accent: #7aa2ff; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); }
header { display: flex; flex-wrap: wrap; align-items: baseline; gap: .25rem 1rem; padding: 1rem 1.5rem; border-bottom: 1px solid var(--line); background: var(--card); }
header h1 { margin: 0; font-size: 1.35rem; }
.who { margin: 0; color: var(--muted); overflow-wrap: anywhere; }
.live { margin: 0 0 0 auto; font-size: .85rem; color: var(--muted); }
.live.on::before { content: "● "; color: var(--ok); }
main { max-width: 46rem; margin: 0 auto; padding: 1.25rem 1rem 3rem; }
.status:empty { display: none; }
.status { padding: .6rem .9rem; border-radius: .5rem; background: #fdecea; color: var(--bad); }
.question { background: var(--card); border: 1px solid var(--line); border-radius: .75rem; padding: 1rem 1.25rem; margin: 0 0 1rem; }
.question h2 { margin: 0 0 .25rem; font-size: 1.1rem; white-space: pre-wrap; overflow-wrap: anywhere; }
.meta { margin: 0 0 .75rem; color: var(--muted); font-size: .85rem; display: flex; flex-wrap: wrap; gap: .25rem .75rem; }
.badge { border-radius: 1rem; padding: 0 .55rem; border: 1px solid var(--line); }
.badge.waiting { border-color: var(--ok); color: var(--ok); }
.badge.answered { border-color: var(--accent); color: var(--accent); }
.field { margin: 0 0 .8rem; }
.field > label, .field > legend { display: block; font-weight: 600; margin-bottom: .2rem; }
.field .hint { display: block; color: var(--muted); font-size: .85rem; margin-bottom: .25rem; }
fieldset.field { border: 0; padding: 0; }
fieldset.field label { display: block; font-weight: 400; }
input[type=text], input[type=email], input[type=url], input[type=number], input[type=date], input[type=datetime-local], select, textarea {
  width: 100%; padding: .45rem .55rem; border: 1px solid var(--line); border-radius: .4rem; font: inherit; background: var(--bg); color: var(--fg); }
.check { display: flex; gap: .5rem; align-items: center; font-weight: 600; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; margin-top: 1rem; }
button { font: inherit; padding: .45rem 1rem; border-radius: .4rem; border: 1px solid var(--line); background: var(--card); color: var(--fg); cursor: pointer; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
button:disabled { opacity: .55; cursor: default; }
.result { margin: .75rem 0 0; font-weight: 600; }
.result.ok { color: var(--ok); } .result.error { color: var(--bad); } .result:empty { display: none; }
.empty { color: var(--muted); text-align: center; padding: 2rem 0; }
.done h2 { font-size: 1rem; color: var(--muted); }
.done li { margin-bottom: .35rem; overflow-wrap: anywhere; }
`;
