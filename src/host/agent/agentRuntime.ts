// What an agent run needs at run time (the loop, the protocols, the tools), as one entry: the shipped extension
// builds it into dist/agent.js and loads it on the first run, so activation does not parse it (see esbuild.mjs).
export { AgentRunner } from './agentRun';
