import { findFilesTool, listDirTool } from './listFiles';
import { getProblemsTool } from './problems';
import { readFileTool } from './readFile';
import { searchSymbolsTool } from './searchSymbols';
import { searchTextTool } from './searchText';
import type { HostTool, ToolEnv } from './types';

/** The agent's read-only tools, by the name the model calls: they run without asking, inside the workspace only. */
export function readOnlyTools(env: ToolEnv): Record<string, HostTool> {
  return {
    read_file: readFileTool(env),
    list_dir: listDirTool(env),
    find_files: findFilesTool(env),
    search_text: searchTextTool(env),
    search_symbols: searchSymbolsTool(env),
    get_problems: getProblemsTool(env),
  };
}
