/**
 * A runtime list of the keys of a type map (live events, job names), checked at compile time to
 * name every key: a key added to the map and forgotten in the list does not compile, and the
 * error names it (`missing`). The list is what code that runs needs (a hub, a queue's start check);
 * the map is what the compiler needs.
 */
export function everyKey<K extends string>() {
  return <const L extends readonly K[]>(
    list: L & ([Exclude<K, L[number]>] extends [never] ? unknown : { missing: Exclude<K, L[number]> }),
  ): L => list;
}
