/**
 * Which instruction the Generate Code box submits on Enter. The box offers earlier instructions; the typed text
 * becomes an item only once the extension host has heard of it, so an Enter pressed quickly finds a recent
 * instruction active that the user never chose. The typed text wins unless the active item is a recent
 * instruction that contains it (the user typed to find it and picked it).
 */
export function chosenInstruction(typed: string, active: string | undefined): string {
  const value = typed.trim();
  if (!value) return (active ?? '').trim();
  if (active !== undefined && active.toLowerCase().includes(value.toLowerCase())) return active.trim();
  return value;
}
