// The parley command: a table of subcommands, each loaded only when it runs. Adding one is one line here.
type Command = { usage: string; run: (args: string[]) => Promise<number> };

// A Map, so `parley constructor` is an unknown command, not Object.prototype's. In docs/cli.md's order.
const COMMANDS = new Map<string, Command>(
  Object.entries({
    init: {
      usage: 'parley init <dir> [--worker]   make a new project: a server with a tool that asks, its tests, its entries',
      run: async (a) => (await import('./init')).init(a),
    },
    dev: {
      usage: 'parley dev [entry] [--stdio] [--port N] [--log FILE]   run a server module; restart it on change',
      run: async (a) => (await import('./dev')).dev(a),
    },
    inbox: {
      usage: 'parley inbox --url <server> [--answer <id> --content JSON | --decline | --cancel]   answer questions',
      run: async (a) => (await import('./inbox')).runInbox(a),
    },
    idp: {
      usage: 'parley idp [--port 9400] [--scopes a,b] [--server <origin>]   an OpenID provider on loopback, for development',
      run: async (a) => (await import('./idp')).runIdp(a),
    },
    token: {
      usage: 'parley token --sub <subject> [--secret S] [--expires 1h]   a dev HS256 token for auth: { secret }',
      run: async (a) => (await import('./token')).runToken(a),
    },
  } satisfies Record<string, Command>),
);

const usage = () =>
  `usage:\n${[...COMMANDS.values()].map((c) => `  ${c.usage}`).join('\n')}\n  parley --version\n  parley <command> --help   what a command takes\n`;

/** Runs `parley <command> [...args]` and resolves with the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${(await import('./version')).packageVersion()}\n`);
    return 0;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stderr.write(usage());
    return name === undefined ? 1 : 0;
  }
  const command = COMMANDS.get(name);
  if (!command) {
    process.stderr.write(`parley: unknown command "${name}"\n${usage()}`);
    return 1;
  }
  try {
    return await command.run(args);
  } catch (error) {
    process.stderr.write(`parley ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
