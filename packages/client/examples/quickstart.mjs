import { Parley, ParleyError } from '@parley/client';

const parley = new Parley({ baseUrl: process.env.PARLEY_URL, apiKey: process.env.PARLEY_API_KEY });

// Create a dialogue with a first message, then add the answer.
const dialogue = await parley.dialogues.create({
  label: 'Order question',
  messages: [{ role: 'user', content: 'Where is my order #1234?' }],
});
await parley.messages.create({ dialogueId: dialogue.id, role: 'assistant', content: 'It ships tomorrow.' });

// List: an async iterator that follows the cursor from page to page.
for await (const each of parley.dialogues.list({ limit: 20 })) {
  console.log('dialogue', each.id, each.label, each.totalMessages);
}

// Search the messages.
const { results } = await parley.search({ query: 'order ships', object: 'message' });
console.log(
  'search',
  results.map((result) => result.item.content),
);
if (results.length === 0) throw new Error('search found nothing');

// Stream the change feed: from the oldest kept event (after: 0), two message events, then stop.
const seen = [];
for await (const event of parley.events.stream({ after: 0, type: ['message.created'] })) {
  seen.push(event.type);
  if (seen.length === 2) break;
}
console.log('events', seen);

// Failures are ParleyErrors carrying the server's error envelope.
try {
  await parley.dialogues.get('dlg_missing');
} catch (error) {
  if (!(error instanceof ParleyError) || error.code !== 'DIALOGUE_NOT_FOUND') throw error;
  console.log('error', error.status, error.code);
}
