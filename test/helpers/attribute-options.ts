// The attributes most variant tests start from: Size (S, M +5) and Color (Red, Blue +2.50), named
// with a run's tag so that suites sharing an app do not collide.
import * as assert from 'uvu/assert';
import { API, type TestApp } from './app.ts';

export interface SizesAndColours {
  category: number;
  size: number;
  color: number;
  small: number;
  medium: number;
  red: number;
  blue: number;
}

export async function sizesAndColours(app: TestApp & { token: string }, tag: string): Promise<SizesAndColours> {
  const created = async (path: string, body: Record<string, unknown>) => {
    const response = await app.client.post(`${API}${path}`, { token: app.token, body });
    assert.is(response.status, 201, response.text);
    return response.body.data.id as number;
  };
  const category = Number((await app.knex('products_categories').orderBy('id').first('id')).id);
  const size = await created('/products/attributes', { name: `Size ${tag}`, type: 'radio', sort: 1 });
  const color = await created('/products/attributes', { name: `Color ${tag}`, type: 'color', sort: 2 });
  return {
    category,
    size,
    color,
    small: await created(`/products/attributes/${size}/options`, { name: 'S' }),
    medium: await created(`/products/attributes/${size}/options`, { name: 'M', extra_price: 5 }),
    red: await created(`/products/attributes/${color}/options`, { name: 'Red', color: '#ff0000' }),
    blue: await created(`/products/attributes/${color}/options`, { name: 'Blue', color: '#0000ff', extra_price: 2.5 }),
  };
}
