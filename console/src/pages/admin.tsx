import { useEffect, useState } from 'preact/hooks';
import { type components, describeError } from '../api.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { ErrorNotice } from '../components/notice.js';
import { ObjectCounts } from '../components/object-counts.js';
import { formatTime } from '../format.js';
import { useSession } from '../session-context.js';
import { ProjectRetention } from './retention.js';

type Project = components['schemas']['Project'];
type ApiKey = components['schemas']['ApiKey'];
type Usage = components['schemas']['Usage'];
type ProjectErasure = components['schemas']['ProjectErasureRecord'];

/** A new key, shown once: the server keeps only its hash. */
function NewKey({ value }: { value: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div class="new-key" role="status">
      <p>New key (shown once; copy it now):</p>
      <code class="api-key">{value}</code>{' '}
      <button
        type="button"
        onClick={async () => {
          await navigator.clipboard.writeText(value);
          setCopied(true);
        }}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}

function ProjectKeys({ project }: { project: Project }) {
  const { client } = useSession();
  const [keys, setKeys] = useState<ApiKey[]>();
  const [usage, setUsage] = useState<Usage>();
  const [created, setCreated] = useState<string>();
  const [error, setError] = useState<string>();
  const load = () =>
    Promise.all([client.admin.listKeys(project.id), client.admin.usage(project.id)]).then(
      ([list, used]) => {
        setKeys(list.items);
        setUsage(used);
      },
      (failure) => setError(describeError(failure)),
    );
  useEffect(() => {
    setCreated(undefined);
    void load();
  }, [project.id]);
  const attempt = async (action: () => Promise<void>) => {
    setError(undefined);
    try {
      await action();
    } catch (failure) {
      setError(describeError(failure));
    }
  };
  return (
    <div>
      {usage && (
        <p>
          Usage in {usage.month}: {usage.writes.toLocaleString('en')} writes
          {usage.monthlyWriteQuota !== null
            ? ` of ${usage.monthlyWriteQuota.toLocaleString('en')} (${usage.remaining?.toLocaleString('en')} left)`
            : ' (no quota)'}
          ; resets {formatTime(usage.resetsAt)}.
        </p>
      )}
      <button
        type="button"
        onClick={() =>
          attempt(async () => {
            const key = await client.admin.createKey(project.id);
            setCreated(key.apiKey);
            await load();
          })
        }
      >
        Create key
      </button>
      {created && <NewKey value={created} />}
      <ErrorNotice error={error} />
      {keys && (
        <div class="table-wrap">
          <table>
            <caption>Keys of {project.name}</caption>
            <thead>
              <tr>
                <th scope="col">Prefix</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.id} data-key-id={key.id}>
                  <td>
                    <code>{key.prefix}…</code>
                  </td>
                  <td>{formatTime(key.created)}</td>
                  <td>{formatTime(key.lastUsed)}</td>
                  <td>
                    {key.revoked ? (
                      `revoked ${formatTime(key.revoked)}`
                    ) : (
                      <ConfirmButton
                        label="Revoke"
                        danger
                        question={`Revoke key ${key.prefix}…? Clients using it stop working.`}
                        onConfirm={() =>
                          attempt(async () => {
                            await client.admin.revokeKey(project.id, key.id);
                            await load();
                          })
                        }
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/** Erasing a project (D74), behind a confirmation; `onErased` gets the erasure's record (D166). */
function EraseProject({
  project,
  onErased,
}: {
  project: Project;
  onErased: (erasure: ProjectErasure) => void;
}) {
  const { client } = useSession();
  const [error, setError] = useState<string>();
  return (
    <div>
      <p class="hint">
        Revokes the project's keys, then deletes every dialogue, message, memory, event and webhook of it.
        Only the erasure's record is kept.
      </p>
      <ConfirmButton
        label="Erase project"
        danger
        question={`Erase project ${project.name} (${project.id}) and all its data? This cannot be undone.`}
        onConfirm={async () => {
          setError(undefined);
          try {
            onErased((await client.admin.eraseProject(project.id)).erasure);
          } catch (failure) {
            setError(describeError(failure));
          }
        }}
      />
      <ErrorNotice error={error} />
    </div>
  );
}

/** The record an erasure answered: its receipt, also at GET /admin/v1/erasures/{id}. */
function ErasureReceipt({ erasure }: { erasure: ProjectErasure }) {
  return (
    <p class="notice" role="status">
      Project <code>{erasure.projectId}</code> {erasure.status === 'completed' ? 'erased' : 'being erased'}:{' '}
      <ObjectCounts counts={erasure.counts} />. Record <code>{erasure.id}</code>
      {erasure.completedAt ? `, completed ${formatTime(erasure.completedAt)}` : ''}.
    </p>
  );
}

/** What a project's card can open. */
const VIEWS = [
  { view: 'keys', label: 'Keys and usage' },
  { view: 'retention', label: 'Retention' },
  { view: 'erase', label: 'Erase' },
] as const;
type View = (typeof VIEWS)[number]['view'];

/**
 * The admin pages: projects, their keys (create, revoke), their usage against the quota, their
 * retention policy with what it would delete now, and their erasure with its record.
 */
export function AdminPage() {
  const { client } = useSession();
  const [projects, setProjects] = useState<Project[]>();
  const [chosen, setChosen] = useState<{ id: string; view: View }>();
  const [error, setError] = useState<string>();
  const [erased, setErased] = useState<ProjectErasure>();
  useEffect(() => {
    client.admin.listProjects().then(
      (list) => setProjects(list.items),
      (failure) => setError(describeError(failure)),
    );
  }, [client]);
  return (
    <section>
      <h1>Admin</h1>
      <ErrorNotice error={error} />
      {erased && <ErasureReceipt erasure={erased} />}
      <ul class="cards" aria-label="Projects">
        {projects?.map((project) => (
          <li key={project.id} class="card" data-project-id={project.id}>
            <div class="message-head">
              <strong>{project.name}</strong>
              <code>{project.id}</code>
              <span>created {formatTime(project.created)}</span>
              {VIEWS.map(({ view, label }) => (
                <button
                  key={view}
                  type="button"
                  aria-pressed={chosen?.id === project.id && chosen.view === view}
                  onClick={() => setChosen({ id: project.id, view })}
                >
                  {label}
                </button>
              ))}
            </div>
            {chosen?.id === project.id && chosen.view === 'keys' && <ProjectKeys project={project} />}
            {chosen?.id === project.id && chosen.view === 'retention' && (
              <ProjectRetention project={project} />
            )}
            {chosen?.id === project.id && chosen.view === 'erase' && (
              <EraseProject
                project={project}
                onErased={(erasure) => {
                  setErased(erasure);
                  setProjects((list) => list?.filter((item) => item.id !== project.id));
                }}
              />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
