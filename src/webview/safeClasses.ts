/** The class names rendered Markdown may carry, shared by the sanitiser and the DOM builders. */

/** Class names markdown-it and highlight.js produce; anything else could borrow the UI's own styles. */
const ALLOWED_CLASS =
  /^(?:hljs(?:-[\w-]+)?|[a-z]+_+|language-[\w+#.-]+|align-(?:left|right|center)|image-link)$/;

/** The allowed names of a class attribute, space-separated, or undefined when none is allowed. */
export function allowedClasses(value: string): string | undefined {
  const kept = value.split(/\s+/).filter((name) => ALLOWED_CLASS.test(name));
  return kept.length > 0 ? kept.join(' ') : undefined;
}
