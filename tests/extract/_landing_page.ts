/**
 * The markup of a service's landing page, as the content tests build it: feature sections of
 * one headed paragraph each, then an FAQ (the pattern a landing page of headed sections reads).
 */

/** What a landing page's sections are about. */
export const FEATURES = ["Fast builds", "Offline work", "App stores", "Low cost", "Any industry"];

/** One `<section>` per name: a heading over a paragraph about it. */
export function featureSections(names: string[]): string {
  return names.map((name) =>
    `<section><h2>${name}</h2><p>We make ${name.toLowerCase()} part of every project we ` +
    `deliver for our clients, from the first sketch to the launch and the years after it ` +
    `when the product grows with its users.</p></section>`
  ).join("");
}

/** `count` questions, each an `<h3>` answered by `answer`. */
export function faqItems(count: number, answer: string): string {
  return Array.from(
    { length: count },
    (_, i) => `<h3>Question number ${i + 1} about the service?</h3><p>${answer}</p>`,
  ).join("");
}
