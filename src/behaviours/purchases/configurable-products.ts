// A configurable product is a template: purchases name one of its variants (reference §5).

/** "The product 'Chair' is configurable and cannot be used in purchase orders. Please select a product variant instead." */
export function configurableProductMessage(name: string, usage: string): string {
  return `The product '${name}' is configurable and cannot be used ${usage}. Please select a product variant instead.`;
}
