// The person at the console: a name remembered in this browser (the local person is an admin).
const STORAGE_KEY = 'brainstorm.personName';

/** The name to post under ("Host" until the person sets one: the models and the record speak of the person by it). */
export function personName() {
  return (localStorage.getItem(STORAGE_KEY) ?? '').trim() || 'Host';
}

/** Binds the header's name field to the stored name. */
export function bindPersonField(input) {
  input.value = personName();
  input.addEventListener('change', () => {
    const name = input.value.trim();
    if (name) localStorage.setItem(STORAGE_KEY, name);
    else localStorage.removeItem(STORAGE_KEY);
    input.value = personName();
  });
}
