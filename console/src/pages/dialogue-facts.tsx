import { Link } from 'wouter-preact';
import type { Dialogue } from '../api.js';
import { ExpiresAt } from '../components/expires-at.js';
import { JsonView } from '../components/json-view.js';
import { Tags, TruncatedText } from '../components/truncated.js';
import { countOf, formatTime, queryString } from '../format.js';

/**
 * D160, D155: the original of a fork, at the last message copied (the page opens there, D132). The
 * record names no namespace for it: the fork's is used, which is the original's unless the fork was
 * given another through the API.
 */
function ForkedFrom({ dialogue }: { dialogue: Dialogue }) {
  const origin = dialogue.forkedFrom;
  if (!origin) return <>none</>;
  const address = `/dialogues/${origin.dialogueId}${queryString({ namespace: dialogue.namespace })}`;
  return (
    <>
      <Link href={address}>{origin.dialogueId}</Link>
      {origin.messageId && (
        <>
          {' '}
          at message <Link href={`${address}#${origin.messageId}`}>{origin.messageId}</Link>
        </>
      )}
    </>
  );
}

/** What a dialogue's record says, as a list of facts. */
export function DialogueFacts({ dialogue }: { dialogue: Dialogue }) {
  return (
    <dl class="facts">
      <dt>Status</dt>
      <dd>{dialogue.status}</dd>
      <dt>Label</dt>
      <dd>{dialogue.label ? <TruncatedText text={dialogue.label} limit={200} /> : '—'}</dd>
      <dt>Namespace</dt>
      <dd>{dialogue.namespace ?? '—'}</dd>
      <dt>Tags</dt>
      <dd>{dialogue.tags.length ? <Tags tags={dialogue.tags} /> : '—'}</dd>
      <dt>Messages</dt>
      <dd>{dialogue.totalMessages.toLocaleString('en')}</dd>
      <dt>Threads</dt>
      <dd>
        {dialogue.threadCount > 0 ? (
          <Link href={`/dialogues${queryString({ threadOf: dialogue.id, namespace: dialogue.namespace })}`}>
            {countOf(dialogue.threadCount, 'thread')}
          </Link>
        ) : (
          'none'
        )}
      </dd>
      <dt>Parent</dt>
      <dd>
        {dialogue.threadOf ? (
          <Link href={`/dialogues/${dialogue.threadOf}${queryString({ namespace: dialogue.namespace })}`}>
            {dialogue.threadOf}
          </Link>
        ) : (
          'none'
        )}
      </dd>
      <dt>Forked from</dt>
      <dd>
        <ForkedFrom dialogue={dialogue} />
      </dd>
      <dt>Forks</dt>
      <dd>
        {/* Forks may live in other namespaces: the list covers the whole project (D51). */}
        <Link href={`/dialogues${queryString({ forkedFrom: dialogue.id })}`}>List the forks</Link>
      </dd>
      <dt>Created</dt>
      <dd>{formatTime(dialogue.created)}</dd>
      <dt>Expires</dt>
      <dd>
        <ExpiresAt value={dialogue.expiresAt} />
      </dd>
      <dt>Metadata</dt>
      <dd>
        <JsonView value={dialogue.metadata} />
      </dd>
      <dt>State</dt>
      <dd>
        <JsonView value={dialogue.state} />
      </dd>
      <dt>Summary</dt>
      <dd>{dialogue.summary ? <JsonView value={dialogue.summary} /> : 'none'}</dd>
    </dl>
  );
}
