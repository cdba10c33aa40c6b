import { describe, expect, it } from 'vitest';
import { isForeignKeyViolation } from '../../src/db/errors.js';

// A Citus coordinator passes a worker's error on without its `constraint` field, and the worker
// names the shard's constraint: the repositories must still recognise their foreign keys, or a
// write to a missing project or parent would answer 500 instead of its own error code.

const FK = 'dialogues_project_id_projects_id_fk';

describe('foreign key violations by constraint name', () => {
  it('reads the constraint field (one server)', () => {
    expect(isForeignKeyViolation({ code: '23503', constraint: FK }, FK)).toBe(true);
    expect(isForeignKeyViolation({ code: '23503', constraint: 'messages_dialogue_fk' }, FK)).toBe(false);
    expect(isForeignKeyViolation({ code: '23505', constraint: FK }, FK)).toBe(false);
  });

  it('reads the shard constraint a Citus worker names in its message', () => {
    const citus = {
      code: '23503',
      message: `insert or update on table "dialogues_102016" violates foreign key constraint "${FK}_102016"`,
    };
    expect(isForeignKeyViolation(citus, FK)).toBe(true);
    expect(isForeignKeyViolation({ cause: citus }, FK)).toBe(true);
    expect(isForeignKeyViolation(citus, 'dialogues_project_id')).toBe(false);
    expect(isForeignKeyViolation({ ...citus, message: citus.message.replace('fk_102016', 'fk_x') }, FK)).toBe(
      false,
    );
  });
});
