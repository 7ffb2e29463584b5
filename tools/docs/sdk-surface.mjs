// The methods of the installed @basis-theory/node-sdk, read from its type declarations: each resource's client
// (dist/cjs/api/resources/<resource>[/resources/<sub>]/client/Client.d.ts) and its public methods, as the member path
// a caller writes (`tokens.create`, `tenants.self.get`). compatibility.mjs checks that the page lists every one.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './sdk-calls.mjs';

export const NODE_SDK_RESOURCES = path.join(ROOT, 'node_modules/@basis-theory/node-sdk/dist/cjs/api/resources');

export function nodeSdkMethods(dir = NODE_SDK_RESOURCES) {
  const methods = new Set();
  const walk = (d, prefix) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (!e.isDirectory()) continue;
      const resource = path.join(d, e.name);
      const client = path.join(resource, 'client', 'Client.d.ts');
      if (fs.existsSync(client)) {
        // a method declaration is indented one level in the class body (private helpers start with an underscore)
        for (const m of fs.readFileSync(client, 'utf8').matchAll(/^ {4}([a-z][A-Za-z0-9]*)\(/gm))
          if (m[1] !== 'constructor') methods.add(`${prefix}${e.name}.${m[1]}`);
      }
      if (fs.existsSync(path.join(resource, 'resources'))) walk(path.join(resource, 'resources'), `${prefix}${e.name}.`);
    }
  };
  walk(dir, '');
  return methods;
}
