import { Decider } from '../kernel/decider';
import { DomainError } from '../kernel/domain-error';
import {
  decideConsumeRedirectHandoff,
  decideIssueClaimLink,
  decideStartRedirectSession,
} from './payout.access';
import { PayoutCommand } from './payout.commands';
import { decideCreatePayout } from './payout.create';
import { PayoutEvent } from './payout.events';
import {
  decideCancel,
  decideConfirm,
  decideExpire,
  decideFail,
  decideFlagForReview,
  decideLeaveFloatQueue,
  decideMarkAwaitingFloat,
  decideRecordPaid,
  decideReview,
} from './payout.lifecycle';
import { evolvePayout } from './payout.evolve';
import { initialPayoutState, Payout, PayoutState } from './payout.state';

/** Turns a command to one payout into events, or refuses it with a DomainError. */
export function decidePayout(command: PayoutCommand, state: PayoutState, now: Date): PayoutEvent[] {
  switch (command.type) {
    case 'CreatePayout':
      return decideCreatePayout(command.data, state, now);
    case 'IssueClaimLink':
      return decideIssueClaimLink(command.data, existing(state), now);
    case 'StartRedirectSession':
      return decideStartRedirectSession(command.data, existing(state), now);
    case 'ConsumeRedirectHandoff':
      return decideConsumeRedirectHandoff(command.data, state, now);
    case 'ConfirmPayout':
      return decideConfirm(command.data, existing(state), now);
    case 'MarkAwaitingFloat':
      return decideMarkAwaitingFloat(existing(state), now);
    case 'LeaveFloatQueue':
      return decideLeaveFloatQueue(existing(state), now);
    case 'FlagForReview':
      return decideFlagForReview(command.data, existing(state), now);
    case 'DecideReview':
      return decideReview(command.data, existing(state), now);
    case 'RecordPayoutPaid':
      return decideRecordPaid(command.data, existing(state), now);
    case 'FailPayout':
      return decideFail(command.data, existing(state), now);
    case 'CancelPayout':
      return decideCancel(existing(state), now);
    case 'ExpirePayout':
      return decideExpire(existing(state), now);
    default: {
      const _never: never = command;
      throw new Error(`Unknown payout command ${JSON.stringify(_never)}`);
    }
  }
}

function existing(state: PayoutState): Payout {
  if (state.status === 'none') throw new DomainError('payout_not_found', 'The payout does not exist');
  return state;
}

export const payoutDecider: Decider<PayoutCommand, PayoutEvent, PayoutState> = {
  decide: decidePayout,
  evolve: evolvePayout,
  initialState: initialPayoutState,
};
