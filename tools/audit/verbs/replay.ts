import { EXIT, Verb } from '../cli';

/** ARCHITECTURE 8's replay; not in this build yet, so it says so and checks nothing (exit 2). */
export const REPLAY_VERB: Verb = {
  name: 'replay',
  help: `replay
    Rebuilds every read model from position zero into a fresh schema and compares it row by
    row with the live one at the same feed position. Not yet available (exit 2).`,
  opensDatabase: false,
  run: async (_db, _args, output) => {
    output.progress('audit replay: not yet available in this build');
    return EXIT.cannotRun;
  },
};
