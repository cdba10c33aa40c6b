import { formatTime } from '../format.js';

/** D150, D157: when a dialogue or memory stops existing (`null`: never). */
export function ExpiresAt({ value }: { value: string | null }) {
  if (!value) return <>never</>;
  return <time dateTime={value}>{formatTime(value)}</time>;
}
