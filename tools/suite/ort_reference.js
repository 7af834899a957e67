#!/usr/bin/env node
// Runs a model on ONNX Runtime (onnxruntime-node) for reference outputs and timings.
//   node ort_reference.js MODEL --input NAME=FILE.npy ... [--output-dir DIR]
//        [--threads N] [--repeat N] [--warmup N] [--opt-level all|extended|basic|disabled]
//        [--save-optimized FILE]
// Writes <output name>.npy per output into --output-dir and prints one JSON line with the
// session creation time, the per-run latencies (ms) and the resident memory just before session
// creation and after the runs (bytes), for memory comparisons made the same way in both engines.
'use strict';
const fs = require('fs');
const path = require('path');

function requireOrt() {
  const roots = [process.env.ORT_NODE_MODULES, path.join(__dirname, '..', '..', 'suite', 'node_modules')];
  for (const root of roots) {
    if (!root) continue;
    try { return require(path.join(root, 'onnxruntime-node')); } catch (e) { /* next */ }
  }
  return require('onnxruntime-node');
}
const ort = requireOrt();

const NPY_TYPES = {
  '<f4': ['float32', Float32Array], '<f8': ['float64', Float64Array],
  '<i8': ['int64', BigInt64Array], '<i4': ['int32', Int32Array], '<i2': ['int16', Int16Array],
  '|i1': ['int8', Int8Array], '|u1': ['uint8', Uint8Array], '<u2': ['uint16', Uint16Array],
  '<u4': ['uint32', Uint32Array], '<u8': ['uint64', BigUint64Array], '|b1': ['bool', Uint8Array],
};

function readNpy(file) {
  const bytes = fs.readFileSync(file);
  const major = bytes[6];
  const headerLength = major === 1 ? bytes.readUInt16LE(8) : bytes.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = bytes.toString('latin1', start, start + headerLength);
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(',').map(s => s.trim())
      .filter(s => s.length).map(Number);
  const [type, ArrayType] = NPY_TYPES[descr];
  const data = bytes.subarray(start + headerLength);
  const copy = new Uint8Array(data.length);
  copy.set(data);
  const values = new ArrayType(copy.buffer);
  return new ort.Tensor(type, type === 'bool' ? Uint8Array.from(values) : values, shape);
}

function writeNpy(file, tensor) {
  const descr = Object.keys(NPY_TYPES).find(key => NPY_TYPES[key][0] === tensor.type);
  const shape = tensor.dims.length === 1 ? `(${tensor.dims[0]},)` : `(${tensor.dims.join(', ')})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shape}, }`;
  const pad = (64 - ((10 + header.length + 1) % 64)) % 64;
  header += ' '.repeat(pad) + '\n';
  const prefix = Buffer.alloc(10);
  prefix.write('\x93NUMPY', 0, 'latin1');
  prefix[6] = 1;
  prefix[7] = 0;
  prefix.writeUInt16LE(header.length, 8);
  const data = tensor.data;
  const body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  fs.writeFileSync(file, Buffer.concat([prefix, Buffer.from(header, 'latin1'), body]));
}

async function main() {
  const args = process.argv.slice(2);
  const options = {
    inputs: {}, outputDir: '', threads: 1, repeat: 1, warmup: 0, optLevel: 'all', saveOptimized: '',
  };
  let model = '';
  for (let i = 0; i < args.length; ++i) {
    const arg = args[i];
    if (arg === '--input') {
      const [name, file] = args[++i].split('=');
      options.inputs[name] = readNpy(file);
    } else if (arg === '--output-dir') options.outputDir = args[++i];
    else if (arg === '--threads') options.threads = Number(args[++i]);
    else if (arg === '--repeat') options.repeat = Number(args[++i]);
    else if (arg === '--warmup') options.warmup = Number(args[++i]);
    else if (arg === '--opt-level') options.optLevel = args[++i];
    else if (arg === '--save-optimized') options.saveOptimized = args[++i];
    else model = arg;
  }
  const rssBeforeBytes = process.memoryUsage().rss;
  const created = process.hrtime.bigint();
  const session = await ort.InferenceSession.create(model, {
    graphOptimizationLevel: options.optLevel,
    intraOpNumThreads: options.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    ...(options.saveOptimized ? { optimizedModelFilePath: options.saveOptimized } : {}),
  });
  const createMs = Number(process.hrtime.bigint() - created) / 1e6;
  for (let i = 0; i < options.warmup; ++i) await session.run(options.inputs);
  const latencies = [];
  let outputs;
  for (let i = 0; i < options.repeat; ++i) {
    const start = process.hrtime.bigint();
    outputs = await session.run(options.inputs);
    latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  if (options.outputDir) {
    fs.mkdirSync(options.outputDir, { recursive: true });
    for (const name of session.outputNames) {
      writeNpy(path.join(options.outputDir, name + '.npy'), outputs[name]);
    }
  }
  const rssAfterBytes = process.memoryUsage().rss;
  console.log(JSON.stringify({
    session_create_ms: createMs, latencies_ms: latencies,
    rss_before_session_bytes: rssBeforeBytes, rss_after_runs_bytes: rssAfterBytes,
    rss_growth_bytes: rssAfterBytes - rssBeforeBytes,
  }));
}

main().catch(error => {
  console.error('ort_reference: ' + error.message);
  process.exit(2);
});
