/**
 * The agent's built-in tools as the model sees them: names, one-line descriptions and JSON schemas. Every
 * request carries them (natively or in the text protocol's system prompt), so the wording is kept short: the
 * fixed part of a request has a budget of 3,000 estimated tokens (issue 26, "Cost").
 */
import type { ToolDefinition } from '../gateway/types';
import type { AgentToolSpec, JsonSchemaObject } from './types';

const str = (description: string): object => ({ type: 'string', description });
const int = (description: string): object => ({ type: 'integer', minimum: 1, description });

function schema(properties: Record<string, object>, required: string[]): JsonSchemaObject {
  return { type: 'object', properties, required, additionalProperties: false };
}

const PATH = 'Workspace-relative path.';

/** The tools every run offers, in the order the model reads them. */
export const BUILTIN_TOOLS: readonly AgentToolSpec[] = [
  {
    name: 'read_file',
    description:
      'Read a text file, numbered lines. Long files come in pages; the result says how to get the next.',
    parameters: schema(
      { path: str(PATH), startLine: int('First line, from 1.'), endLine: int('Last line, inclusive.') },
      ['path'],
    ),
    readOnly: true,
  },
  {
    name: 'list_dir',
    description: 'List a folder (subfolders end with /). Use "." for the root.',
    parameters: schema({ path: str(PATH) }, ['path']),
    readOnly: true,
  },
  {
    name: 'find_files',
    description: 'Find files by glob, e.g. "src/**/*.ts".',
    parameters: schema({ glob: str('Glob pattern.') }, ['glob']),
    readOnly: true,
  },
  {
    name: 'search_text',
    description: 'Search file contents. Returns file:line and the matching line, capped.',
    parameters: schema(
      {
        query: str('Text to find.'),
        isRegex: { type: 'boolean', description: 'Treat query as a regular expression.' },
        glob: str('Only files matching this glob.'),
      },
      ['query'],
    ),
    readOnly: true,
  },
  {
    name: 'search_symbols',
    description: 'Find classes, functions and other symbols by name across the workspace.',
    parameters: schema({ query: str('Symbol name or part of it.') }, ['query']),
    readOnly: true,
  },
  {
    name: 'get_problems',
    description: 'Errors and warnings of one file, or of the workspace. Call it after editing.',
    parameters: schema({ path: str(`${PATH} Omit for all files.`) }, []),
    readOnly: true,
  },
  {
    name: 'edit_file',
    description:
      'Replace text in a file. Each oldText must match exactly once (whitespace included); add context lines to make it unique.',
    parameters: schema(
      {
        path: str(PATH),
        edits: {
          type: 'array',
          minItems: 1,
          items: schema({ oldText: str('Exact current text.'), newText: str('Replacement.') }, [
            'oldText',
            'newText',
          ]),
        },
      },
      ['path', 'edits'],
    ),
    readOnly: false,
  },
  {
    name: 'create_file',
    description: 'Create a new file with this content (change existing files with edit_file).',
    parameters: schema({ path: str(PATH), content: str('Whole file content.') }, ['path', 'content']),
    readOnly: false,
  },
  {
    name: 'delete_file',
    description: 'Delete a file (the user confirms).',
    parameters: schema({ path: str(PATH) }, ['path']),
    readOnly: false,
  },
  {
    name: 'run_command',
    description:
      'Run a shell command in the workspace (the user approves it first). Returns its output (the end, when long) and exit code.',
    parameters: schema(
      {
        command: str('One command line, e.g. "npm test".'),
        cwd: str('Workspace-relative folder to run in. Omit for the root.'),
      },
      ['command'],
    ),
    readOnly: false,
    // Errors and summaries come last.
    keep: 'tail',
  },
];

/** The tools as OpenAI `tools` entries, for the native protocol. */
export function nativeToolDefinitions(tools: readonly AgentToolSpec[]): ToolDefinition[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}
