#pragma once
// Reads the llama.cpp conformance goldens (conformance README §2): per model a JSON index with
// token sequences and greedy generations, and raw float32 logits per sequence.

#include <QString>
#include <QVector>

#include <cstdint>
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

} // namespace folio::test
