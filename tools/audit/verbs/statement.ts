import { EXIT, Verb } from '../cli';

/** ARCHITECTURE 8's statement; not in this build yet, so it says so and checks nothing (exit 2). */
export const STATEMENT_VERB: Verb = {
  name: 'statement',
  help: `statement --account ID --environment ENV [--currency C] --from T --to T [--format csv|json]
    Every money movement of one ledger with running balances, from events alone. Not yet
    available (exit 2).`,
  opensDatabase: false,
  run: async (_db, _args, output) => {
    output.progress('audit statement: not yet available in this build');
    return EXIT.cannotRun;
  },
};
