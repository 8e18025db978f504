#pragma once
// Reads the llama.cpp conformance goldens (goldens/<model>.json + .f32): per model a JSON index
// with token sequences and greedy generations, and raw float32 logits per sequence.

#include <QString>
#include <QVector>

#include "model/decoder/decoder_model.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace folio::test {

struct GoldenSequence {
    QString name;
    std::vector<int32_t> tokens;
    std::vector<float> logits; // [n_tokens][n_vocab]
};

struct GoldenGreedy {
    std::vector<int32_t> prompt;
    std::vector<int32_t> generated;
};

struct Golden {
    int n_vocab = 0;
    QString modelPath;
    QVector<GoldenSequence> sequences;
    QVector<GoldenGreedy> greedy;
};

// Loads goldens/<model>.json and its .f32 files; empty n_vocab on failure (with a warning).
Golden loadGolden(const QString& conformanceDir, const QString& model);

struct LogitComparison {
    double maxAbsDiff = 0;
    double meanRowMax = 0;
    int argmaxAgree = 0;
    int rows = 0;
};

LogitComparison compareLogits(const std::vector<float>& ours, const std::vector<float>& ref,
                              int n_vocab);

// load_decoder, with the error printed as a test warning; null on failure.
std::unique_ptr<DecoderModel> loadDecoder(const QString& path);

// All-position logits of `tokens` from an empty state, as one batch or one token at a time
// (`seq`); empty on an evaluation error.
// `pool`: where the MLA rows go (null: a private unlimited f32 pool); `index_type`: storage of
// the DSA index keys.
std::vector<float> evaluateAll(const DecoderModel& m, const std::vector<int32_t>& tokens, bool seq,
                               MlaForm form = MlaForm::Auto, int threads = 2,
                               std::shared_ptr<BlockPool> pool = nullptr,
                               KvType index_type = KvType::F32);

// Greedy continuation as the goldens were made: the prompt as one batch, then
// n_generate single-token steps taking the argmax. Empty on an evaluation error.
std::vector<int32_t> greedyContinuation(const DecoderModel& m, const std::vector<int32_t>& prompt,
                                        size_t n_generate);

} // namespace folio::test
