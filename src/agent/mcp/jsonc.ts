/**
 * JSON with comments, as VS Code writes its `mcp.json` and settings, read with Microsoft's `jsonc-parser` (the
 * parser VS Code itself uses): `//` and `/* *\/` comments and trailing commas are allowed.
 */
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

/** Parses JSONC text; throws a SyntaxError naming the first problem and its offset when it is not valid. */
export function parseJsonc(text: string): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parse(text.replace(/^\uFEFF/, ''), errors, {
    allowTrailingComma: true,
    disallowComments: false,
    allowEmptyContent: false,
  });
  const first = errors[0];
  if (first) throw new SyntaxError(`${printParseErrorCode(first.error)} at offset ${first.offset}`);
  return value;
}
