import { AppError } from '../../core/errors.js';
import type { Executor } from '../../db/client.js';
import { isErasing, lockNamespace } from './erasing-sql.js';

// D163: the capability the erasures module publishes for writes that create an object in a
// namespace (a dialogue, a fork, a memory): refused while the namespace is being erased.

export interface NamespaceGate {
  /** Holds the namespace's lock shared until the commit; 409 NAMESPACE_ERASING while an erasure is pending. */
  refuseIfErasing(tx: Executor, projectId: string, namespace: string | null | undefined): Promise<void>;
}

export const namespaceGate: NamespaceGate = {
  async refuseIfErasing(tx, projectId, namespace) {
    if (namespace === null || namespace === undefined) return;
    await lockNamespace(tx, projectId, namespace, 'shared');
    if (await isErasing(tx, projectId, namespace)) {
      throw new AppError(
        'NAMESPACE_ERASING',
        `Namespace ${namespace} is being erased; nothing can be written into it until the erasure completes`,
        [
          {
            field: 'namespace',
            code: 'NAMESPACE_ERASING',
            message: 'an erasure of this namespace is pending',
          },
        ],
      );
    }
  },
};
