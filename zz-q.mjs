import mysql from 'mysql2/promise';
import { readFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
const MY = execSync('pgrep -x mariadbd').toString().trim().split('\n')[0];
const cpu = () => { const f = readFileSync(`/proc/${MY}/stat`, 'utf8').split(') ')[1].split(' '); return Number(f[11]) + Number(f[12]); };
const c = await mysql.createConnection({ host: '127.0.0.1', user: 'root', database: 'prof' });
const Q = {
  boundedCount: ["SELECT a.`version`, (SELECT COUNT(*) FROM (SELECT 1 AS `counted` FROM `unit_of_measures` WHERE `unit_of_measures`.`category_id` = ? AND `unit_of_measures`.`deleted_at` IS NULL AND `unit_of_measures`.`name` LIKE ? ESCAPE '!' LIMIT ?) `rows_counted`) AS `total` FROM `access_state` a WHERE a.`id` = 1 LIMIT 1", [13, '%kg%', 10015]],
  plainCount: ["SELECT a.`version`, (SELECT COUNT(*) FROM `unit_of_measures` WHERE `unit_of_measures`.`category_id` = ? AND `unit_of_measures`.`deleted_at` IS NULL AND `unit_of_measures`.`name` LIKE ? ESCAPE '!') AS `total` FROM `access_state` a WHERE a.`id` = 1 LIMIT 1", [13, '%kg%']],
  page: ["SELECT `unit_of_measures`.* FROM `unit_of_measures` WHERE `unit_of_measures`.`category_id` = ? AND `unit_of_measures`.`deleted_at` IS NULL AND `unit_of_measures`.`name` LIKE ? ESCAPE '!' ORDER BY `unit_of_measures`.`name` DESC, `unit_of_measures`.`id` ASC LIMIT ? OFFSET ?", [13, '%kg%', 15, 0]],
  include: ["SELECT `unit_of_measure_categories`.* FROM `unit_of_measure_categories` WHERE `unit_of_measure_categories`.`id` IN (?)", [13]],
  show: ["SELECT a.`version`, `unit_of_measures`.* FROM `access_state` a LEFT JOIN `unit_of_measures` ON `unit_of_measures`.`id` = ? AND `unit_of_measures`.`category_id` = ? AND `unit_of_measures`.`deleted_at` IS NULL WHERE a.`id` = 1 LIMIT 1", [1260, 13]],
  boundedWindow: ["SELECT x.*, COUNT(*) OVER () AS total FROM (SELECT `unit_of_measures`.* FROM `unit_of_measures` WHERE `unit_of_measures`.`category_id` = ? AND `unit_of_measures`.`deleted_at` IS NULL AND `unit_of_measures`.`name` LIKE ? ESCAPE '!' ORDER BY `unit_of_measures`.`name` DESC, `unit_of_measures`.`id` ASC LIMIT ?) x ORDER BY x.`name` DESC, x.`id` ASC LIMIT ? OFFSET ?", [13, '%kg%', 10015, 15, 0]],
  scalarCountPage: ["SELECT `unit_of_measures`.*, (SELECT COUNT(*) FROM (SELECT 1 AS `counted` FROM `unit_of_measures` WHERE `unit_of_measures`.`category_id` = ? AND `unit_of_measures`.`deleted_at` IS NULL AND `unit_of_measures`.`name` LIKE ? ESCAPE '!' LIMIT ?) `rows_counted`) AS `total` FROM `unit_of_measures` WHERE `unit_of_measures`.`category_id` = ? AND `unit_of_measures`.`deleted_at` IS NULL AND `unit_of_measures`.`name` LIKE ? ESCAPE '!' ORDER BY `unit_of_measures`.`name` DESC, `unit_of_measures`.`id` ASC LIMIT ? OFFSET ?", [13, '%kg%', 10015, 13, '%kg%', 15, 0]],
  windowPage: ["SELECT `unit_of_measures`.*, COUNT(*) OVER () AS total FROM `unit_of_measures` WHERE `unit_of_measures`.`category_id` = ? AND `unit_of_measures`.`deleted_at` IS NULL AND `unit_of_measures`.`name` LIKE ? ESCAPE '!' ORDER BY `unit_of_measures`.`name` DESC, `unit_of_measures`.`id` ASC LIMIT ? OFFSET ?", [13, '%kg%', 15, 0]],
};
const N = Number(process.argv[2] || 2000);
const res = {};
for (let round = 0; round < 4; round++) for (const [name, [sql, p]] of Object.entries(Q)) {
  for (let i = 0; i < 100; i++) await c.execute(sql, p);
  const t = cpu();
  for (let i = 0; i < N; i++) await c.execute(sql, p);
  (res[name] ??= []).push((cpu() - t) * 10000 / N);
}
for (const [k, v] of Object.entries(res)) console.log(k.padEnd(14), v.map((x) => x.toFixed(0)).join(' '), 'µs');
await c.end();
