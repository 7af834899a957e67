// Runs a model on onnxruntime-node (no graph optimization, so every requested tensor is the
// model's own) over input sets and prints one JSON object: the min and max of every output.
//   node calibrate_ranges.js MODEL NODE_MODULES SET_DIR...
// Each SET_DIR holds NAME.npy per model input (float32, int64, int32, bool or uint8).
'use strict';
const fs = require('fs');
const path = require('path');

const NPY_TYPES = {
  '<f4': ['float32', Float32Array],
  '<i8': ['int64', BigInt64Array],
  '<i4': ['int32', Int32Array],
  '|b1': ['bool', Uint8Array],
  '|u1': ['uint8', Uint8Array],
};

function readNpy(ort, file) {
  const bytes = fs.readFileSync(file);
  const major = bytes[6];
  const headerLength = major === 1 ? bytes.readUInt16LE(8) : bytes.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = bytes.toString('latin1', start, start + headerLength);
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)[1]
                    .split(',')
                    .map(s => s.trim())
                    .filter(s => s.length)
                    .map(Number);
  const [type, ArrayType] = NPY_TYPES[descr];
  const data = bytes.subarray(start + headerLength);
  const copy = new Uint8Array(data.length);
  copy.set(data);
  return new ort.Tensor(type, new ArrayType(copy.buffer), shape);
}

(async () => {
  const [model, nodeModules, ...sets] = process.argv.slice(2);
  const ort = require(path.join(nodeModules, 'onnxruntime-node'));
  const session = await ort.InferenceSession.create(model, {graphOptimizationLevel: 'disabled'});
  const ranges = {};
  for (const dir of sets) {
    const feeds = {};
    for (const name of session.inputNames)
      feeds[name] = readNpy(ort, path.join(dir, name + '.npy'));
    const outputs = await session.run(feeds);
    for (const [name, tensor] of Object.entries(outputs)) {
      if (tensor.type !== 'float32') continue;
      let low = Infinity, high = -Infinity;
      for (const v of tensor.data) {
        if (v < low) low = v;
        if (v > high) high = v;
      }
      const seen = ranges[name];
      ranges[name] = seen ? [Math.min(seen[0], low), Math.max(seen[1], high)] : [low, high];
    }
  }
  console.log(JSON.stringify(ranges));
})().catch(error => {
  console.error(String(error));
  process.exit(2);
});
