import ReactMarkdown, { type Components } from "react-markdown";

/**
 * Organiser-written text (a challenge's description, a hint) as Markdown, rendered safely:
 * react-markdown builds React elements from the Markdown only, so raw HTML in the text shows as
 * text and never reaches the page (`skipHtml`: not even as text), and its URL check drops
 * `javascript:` and other unsafe links. Links open in a new tab without handing over the page
 * (`rel="noopener nofollow"`: the text is a stranger's, a link in it vouches for nothing).
 * Headings become strong lines: the page's own headings keep their outline.
 */
const components: Components = {
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noopener nofollow noreferrer" className="font-medium text-brand-700 underline underline-offset-2">
      {children}
    </a>
  ),
  h1: ({ children }) => <p className="font-semibold">{children}</p>,
  h2: ({ children }) => <p className="font-semibold">{children}</p>,
  h3: ({ children }) => <p className="font-semibold">{children}</p>,
  h4: ({ children }) => <p className="font-semibold">{children}</p>,
  h5: ({ children }) => <p className="font-semibold">{children}</p>,
  h6: ({ children }) => <p className="font-semibold">{children}</p>,
  p: ({ children }) => <p className="whitespace-pre-line">{children}</p>,
  ul: ({ children }) => <ul className="list-disc space-y-1 pl-5">{children}</ul>,
  ol: ({ children }) => <ol className="list-decimal space-y-1 pl-5">{children}</ol>,
  code: ({ children }) => <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] text-slate-900">{children}</code>,
  pre: ({ children }) => (
    <pre className="overflow-x-auto rounded-md bg-slate-50 p-3 font-mono text-xs text-slate-800 ring-1 ring-slate-200 [&_code]:bg-transparent [&_code]:p-0" tabIndex={0}>
      {children}
    </pre>
  ),
  img: ({ alt }) => <span>{alt ? `[${alt}]` : null}</span>,
};

export function Markdown({ text, className }: { text: string; className?: string }) {
  return (
    <div className={`space-y-2 ${className ?? ""}`}>
      <ReactMarkdown components={components} skipHtml>
        {text}
      </ReactMarkdown>
    </div>
  );
}
