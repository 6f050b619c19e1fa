/**
 * What the registry indexes of a card: per skill, its id, tags and effective media types (the skill's
 * own modes, else the card's defaults) as lookup terms, and one lower-cased text for free-text search.
 * Also the card summary that find returns.
 */
import type { AgentCard, AgentInterface } from "../protocol/index";
import { selectInterface } from "../client/card";

export type TermKind = "skill" | "tag" | "in" | "out";

export interface SkillTerm {
  kind: TermKind;
  value: string;
  skillId: string;
}

export interface CardIndex {
  /** Sort key: the lower-cased name. */
  sortKey: string;
  /** Lower-cased names, descriptions, tags and examples of the card and its skills. */
  search: string;
  terms: SkillTerm[];
}

/** Media types compare without parameters and case: `Text/Plain; charset=utf-8` is `text/plain`. */
export function normalizeMediaType(value: string): string {
  return value.split(";")[0]!.trim().toLowerCase();
}

export function normalizeTag(value: string): string {
  return value.trim().toLowerCase();
}

export function indexCard(card: AgentCard): CardIndex {
  const terms = new Map<string, SkillTerm>();
  const add = (kind: TermKind, value: string, skillId: string) => {
    if (value !== "") terms.set(`${kind}\u0000${value}\u0000${skillId}`, { kind, value, skillId });
  };
  const text: string[] = [card.name, card.description, card.provider?.organization ?? ""];
  for (const skill of card.skills) {
    add("skill", skill.id, skill.id);
    for (const tag of skill.tags) add("tag", normalizeTag(tag), skill.id);
    for (const mode of skill.inputModes?.length ? skill.inputModes : card.defaultInputModes) add("in", normalizeMediaType(mode), skill.id);
    for (const mode of skill.outputModes?.length ? skill.outputModes : card.defaultOutputModes) add("out", normalizeMediaType(mode), skill.id);
    text.push(skill.id, skill.name, skill.description, ...skill.tags, ...(skill.examples ?? []));
  }
  return { sortKey: card.name.toLowerCase(), search: text.join("\n").toLowerCase(), terms: [...terms.values()] };
}

/** The interface a caller should use: the client's own choice, else the card's first entry. */
export function preferredInterface(card: AgentCard): AgentInterface {
  try {
    return selectInterface(card);
  } catch {
    return card.supportedInterfaces[0]!;
  }
}
