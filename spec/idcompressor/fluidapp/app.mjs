// app.mjs: a Fluid application of SharedTree (@fluidframework/tree 3.1.0)
// on the local mocks of @fluidframework/test-runtime-utils: three clients
// edit one document (items with identifiers, which SharedTree makes with
// the id-compressor, inserted, removed, moved and changed), their ops
// sequenced by the mock service with messages held back and delivered in
// batches, so that edits are concurrent; midway a fourth client joins
// from a summary, its compressor deserialized from another client's
// serialize(false) into a new session, as a container loads; then all
// edit until every client has every op.  The edits are seeded: the same
// run on two id-compressor packages must give the same document.
//
// Prints one line of JSON: which id-compressor package the application
// resolved, each client's document, the tree's summary, each compressor's
// serialized state, and counts.  run.mjs runs it on the reference and on
// ours (npm overrides) and compares.
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { MockContainerRuntimeFactory, MockFluidDataStoreRuntime, MockStorage } from "@fluidframework/test-runtime-utils/internal";
import { SharedTree, SchemaFactory, TreeViewConfiguration } from "@fluidframework/tree/internal";
import { createIdCompressor, deserializeIdCompressor, serializeIdCompressor } from "@fluidframework/id-compressor/internal";

const require = createRequire(import.meta.url);
const sf = new SchemaFactory("idscheme.fluidapp");
class Item extends sf.object("Item", { id: sf.identifier, label: sf.string, n: sf.number }) {}
class Items extends sf.array("Items", Item) {}
class Doc extends sf.object("Doc", { title: sf.string, items: Items }) {}
const config = new TreeViewConfiguration({ schema: Doc });

const factory = new MockContainerRuntimeFactory();
const clients = [];
// a client's runtime, in the quorum (so that the minimum sequence number
// moves, as a service's does); a client that loads starts at the current
// sequence number and minimum sequence number
function runtimeFor(k, idCompressor, loading) {
  const runtime = new MockFluidDataStoreRuntime({ clientId: `client-${k}`, idCompressor, minVersionForCollab: "2.0.0" });
  const container = factory.createContainerRuntime(runtime);
  if (loading) {
    container.deltaManager.lastSequenceNumber = factory.sequenceNumber;
    container.deltaManager.minimumSequenceNumber = factory.getMinSeq();
  }
  factory.quorum.addMember(`client-${k}`, {});
  return runtime;
}
function create(k, sessionId) {
  const idCompressor = createIdCompressor(sessionId);
  const runtime = runtimeFor(k, idCompressor);
  const tree = SharedTree.getFactory().create(runtime, "tree");
  tree.connect({ deltaConnection: runtime.createDeltaConnection(), objectStorage: new MockStorage() });
  clients.push({ k, tree, view: tree.viewWith(config), idCompressor });
}
async function load(k, summary, idCompressor) {
  const runtime = runtimeFor(k, idCompressor, true);
  const f = SharedTree.getFactory();
  const services = {
    deltaConnection: runtime.createDeltaConnection(),
    objectStorage: MockStorage.createFromSummary(summary),
  };
  const tree = await f.load(runtime, "tree", services, f.attributes);
  clients.push({ k, tree, view: tree.viewWith(config), idCompressor });
}

let seed = Number(process.argv[2] ?? 1);
const rnd = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 2 ** 32; };
const pick = (n) => Math.floor(rnd() * n);
let edits = 0;
function edit(steps) {
  for (let step = 0; step < steps; step++, edits++) {
    const { view } = clients[pick(clients.length)], items = view.root.items, r = rnd();
    if (r < 0.45 || items.length === 0) items.insertAt(pick(items.length + 1), new Item({ label: `e${edits}`, n: edits }));
    else if (r < 0.6) items.removeAt(pick(items.length));
    else if (r < 0.85) items[pick(items.length)].n = edits;
    else if (r < 0.95) items.moveToEnd(pick(items.length));
    else view.root.title = `title ${edits}`;
    if (rnd() < 0.25) factory.processSomeMessages(Math.min(factory.outstandingMessageCount, 1 + pick(6)));
  }
}

create(0, "0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a");
create(1, "5b5b5b5b-5b5b-4b5b-9b5b-5b5b5b5b5b5b");
create(2, "a1a1a1a1-a1a1-4a1a-aa1a-a1a1a1a1a1a1");
clients[0].view.initialize(new Doc({ title: "doc", items: [] }));
factory.processAllMessages();
edit(Number(process.argv[3] ?? 300));
factory.processAllMessages();
// quiescence before a summary, as a service has at a summary: every
// client sends an op that has seen every other op, twice, so that the
// minimum sequence number is the last
for (let round = 0; round < 2; round++) {
  for (const { view } of clients) view.root.title = `sync ${round}`;
  factory.processAllMessages();
}
// a fourth client joins from client 1's summary and compressor
const summary = clients[1].tree.getAttachSummary(true).summary;
const joined = deserializeIdCompressor(serializeIdCompressor(clients[1].idCompressor, false),
                                       "e7e7e7e7-e7e7-4e7e-be7e-e7e7e7e7e7e7");
await load(3, summary, joined);
edit(Number(process.argv[3] ?? 300));
factory.processAllMessages();

const docs = clients.map(({ view }) => JSON.stringify(view.root));
// the package that "@fluidframework/id-compressor/internal" resolves to
let dir = path.dirname(fs.realpathSync(require.resolve("@fluidframework/id-compressor/internal")));
while (!fs.existsSync(path.join(dir, "package.json"))) dir = path.dirname(dir);
const { name, version } = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
console.log(JSON.stringify({
  package: `${name}@${version}`,
  resolved: dir,
  compressorClass: clients[0].idCompressor.constructor.name,
  edits,
  items: clients.map(({ view }) => view.root.items.length),
  ids: clients.map(({ view }) => view.root.items.map((i) => i.id)),
  documents: docs,
  summary: JSON.stringify(clients[0].tree.getAttachSummary(true).summary),
  compressors: clients.map(({ idCompressor }) => [serializeIdCompressor(idCompressor, false), serializeIdCompressor(idCompressor, true)]),
}));
