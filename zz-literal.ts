import { startFakeOpenRouter } from './tests/fakes/openrouter/fake-openrouter.ts';
const fake = await startFakeOpenRouter({ port: 7590, fallback: 'literal' });
console.log('fake at', fake.url);
setInterval(() => {}, 1 << 30);
