import { useEffect, useState } from 'preact/hooks';
import { type components, describeError } from '../api.js';
import { ErrorNotice } from '../components/notice.js';
import { ObjectCounts } from '../components/object-counts.js';
import { countOf, formatTime } from '../format.js';
import { useSession } from '../session-context.js';

type Project = components['schemas']['Project'];
type Preview = components['schemas']['RetentionPreview'];
type Rules = { messageDays?: number | null; idleDialogueDays?: number | null; memoryDays?: number | null };

const days = (value: number | null | undefined) => (value == null ? '—' : value.toLocaleString('en'));

/** D151: the stored policy, one row for the project's rules and one per namespace with its own. */
function PolicyTable({ project, policy }: { project: Project; policy: Preview['policy'] }) {
  const rows: [string, Rules][] = [
    ['The project (every other namespace)', policy],
    ...Object.entries(policy.namespaces ?? {}).map(([namespace, rules]): [string, Rules] => [
      `Namespace ${namespace}`,
      rules ?? {},
    ]),
  ];
  return (
    <div class="table-wrap">
      <table>
        <caption>Retention policy of {project.name} (days)</caption>
        <thead>
          <tr>
            <th scope="col">Applies to</th>
            <th scope="col">Messages</th>
            <th scope="col">Idle dialogues</th>
            <th scope="col">Memories</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([scope, rules]) => (
            <tr key={scope}>
              <th scope="row">{scope}</th>
              <td>{days(rules.messageDays)}</td>
              <td>{days(rules.idleDialogueDays)}</td>
              <td>{days(rules.memoryDays)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** D151: per rule, what a sweep would delete now, and the span of the times the rule reads. */
function PreviewTable({ preview }: { preview: Preview }) {
  return (
    <div class="table-wrap">
      <table>
        <caption>What a sweep would delete, measured at {formatTime(preview.at)}</caption>
        <thead>
          <tr>
            <th scope="col">Object</th>
            <th scope="col">Namespace</th>
            <th scope="col">Rule</th>
            <th scope="col">Count</th>
            <th scope="col">Oldest</th>
            <th scope="col">Newest</th>
          </tr>
        </thead>
        <tbody>
          {preview.rules.map((rule) => (
            <tr key={`${rule.object}/${rule.reason}/${rule.namespace ?? ''}`}>
              <td>{rule.object}</td>
              <td>
                {rule.namespace ?? (rule.reason === 'expired' ? 'any' : 'any without rules of its own')}
              </td>
              <td>
                {rule.reason === 'expired'
                  ? 'expiresAt passed'
                  : `${countOf(rule.days ?? 0, 'day')} since ${rule.measuredBy}`}
              </td>
              <td>{rule.count.toLocaleString('en')}</td>
              <td>{formatTime(rule.oldest)}</td>
              <td>{formatTime(rule.newest)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * D158: a project's retention policy and what it would delete now. Read only: settings are the
 * operator's (D7).
 */
export function ProjectRetention({ project }: { project: Project }) {
  const { client } = useSession();
  const [preview, setPreview] = useState<Preview>();
  const [error, setError] = useState<string>();
  const load = () => {
    setError(undefined);
    return client.admin
      .previewRetention(project.id)
      .then(setPreview, (failure) => setError(describeError(failure)));
  };
  useEffect(() => {
    setPreview(undefined);
    void load();
  }, [project.id]);
  const empty =
    preview &&
    preview.policy.messageDays == null &&
    preview.policy.idleDialogueDays == null &&
    preview.policy.memoryDays == null &&
    Object.keys(preview.policy.namespaces ?? {}).length === 0;
  return (
    <div>
      <button type="button" onClick={() => void load()}>
        Preview again
      </button>
      <ErrorNotice error={error} />
      {!preview && !error && <p role="status">Loading the retention preview…</p>}
      {preview && (
        <>
          {empty ? (
            <p>No retention policy: only expired objects are deleted.</p>
          ) : (
            <PolicyTable project={project} policy={preview.policy} />
          )}
          <p role="status">
            A sweep now would delete <ObjectCounts counts={preview.total} />.
          </p>
          {preview.rules.length > 0 && <PreviewTable preview={preview} />}
        </>
      )}
    </div>
  );
}
