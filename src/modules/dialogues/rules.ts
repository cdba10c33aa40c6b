import type { ProjectContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { isExpired } from './records.js';
import type { DialogueRow } from './repository.js';

// The dialogue's own rules about change, which the messages module applies too when it appends
// to a dialogue or changes one of its messages.

/** D24 and the ended state: whether the dialogue may take new messages. */
export function assertAcceptsMessages(dialogue: DialogueRow, ctx: ProjectContext): void {
  if (dialogue.status === 'ended') {
    throw new AppError('DIALOGUE_ENDED', `Dialogue ${dialogue.id} has ended and accepts no new messages`);
  }
  if (isExpired(dialogue, ctx.settings)) {
    throw new AppError('DIALOGUE_EXPIRED', `Dialogue ${dialogue.id} has expired and accepts no new messages`);
  }
}

/** D25: after creation, a dialogue of an immutable project and its messages do not change. */
export function refuseIfImmutable(ctx: ProjectContext): void {
  if (ctx.settings.immutableDialogues) {
    throw new AppError('DIALOGUE_IMMUTABLE', 'Dialogues of this project cannot be changed after creation');
  }
}
