// The DSA indexer's parts against their plain references: the index-key cache (f32 / f16 / q8_0,
// tile layout), the fused score kernels (AVX2 vs scalar vs a float64 formula), the O(n) top-k
// against the nth_element reference, and the logits of the ds32 conformance model with each
// index-key type against llama.cpp's goldens.
#include <QtTest>

#include "kernels/index_score.h"
#include "kernels/kernel_table.h"
#include "kernels/mqa_rows.h"
#include "kernels/weight_rows.h"
#include "model/attention/attention_core.h"
#include "model/attention/index_key_cache.h"
#include "model/attention/index_select.h"
#include "model/attention/top_k_select.h"
#include "model/decoder/decoder_model.h"
#include "model/mixers/dsa_indexer.h"
#include "support/goldens.h"
#include "support/random_data.h"
#include "support/test_support.h"
#include "tensor/fp16.h"
#include "tensor/quant_blocks.h"

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace folio;

namespace {

using folio::test::random_normal;

// What each storage type keeps of a key (the reference conversions of tensor/).
std::vector<float> stored_value(KvType type, const float* row, int64_t dim) {
    std::vector<float> out(row, row + dim);
    if (type == KvType::F16) {
        for (float& v : out)
            v = fp16_to_fp32(fp32_to_fp16(v));
    } else if (type == KvType::Q8_0) {
        const int64_t D = (dim + 31) / 32 * 32;
        std::vector<float> padded(static_cast<size_t>(D), 0.0f), back(static_cast<size_t>(D));
        std::copy(row, row + dim, padded.begin());
        std::vector<BlockQ8_0> blocks(static_cast<size_t>(D / 32));
        (void)quantize_row(DType::Q8_0, padded.data(), blocks.data(), D);
        (void)dequantize_row(DType::Q8_0, blocks.data(), back.data(), D);
        std::copy(back.begin(), back.begin() + dim, out.begin());
    }
    return out;
}

} // namespace

class TestDsaIndexer : public QObject {
    Q_OBJECT
private slots:
    void cacheStoresAndRewinds_data() {
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("dim");
        for (KvType t : {KvType::F32, KvType::F16, KvType::Q8_0})
            for (int dim : {64, 48, 128})
                QTest::newRow(QStringLiteral("%1 d%2").arg(kv_type_name(t)).arg(dim).toLatin1())
                    << int(t) << dim;
    }
    void cacheStoresAndRewinds() {
        QFETCH(int, type);
        QFETCH(int, dim);
        const KvType t = static_cast<KvType>(type);
        const int64_t n = 45;
        const auto rows = random_normal(static_cast<size_t>(n * dim), 11);
        IndexKeyCache cache(3, static_cast<uint32_t>(dim), n, t);
        QCOMPARE(cache.type(), t);
        QCOMPARE(cache.size(), int64_t(0));
        int64_t done = 0;
        for (int64_t chunk : {3, 1, 13, 1, 27}) { // crosses tile boundaries both ways
            QVERIFY(cache.append(1, rows.data() + done * dim, chunk).has_value());
            cache.commit(chunk);
            done += chunk;
        }
        QCOMPARE(cache.size(), n);
        QVERIFY(!cache.append(1, rows.data(), 1)); // context full
        QCOMPARE(cache.size(), n);
        std::vector<float> got(static_cast<size_t>(dim));
        for (int64_t p = 0; p < n; ++p) {
            cache.read(1, p, got.data());
            QVERIFY2(got == stored_value(t, rows.data() + p * dim, dim),
                     qPrintable(QString::number(p)));
        }
        const size_t per_key = t == KvType::F32   ? dim * 4u
                               : t == KvType::F16 ? dim * 2u
                                                  : (dim + 31) / 32 * 34u;
        QVERIFY(cache.bytes() >= (n + 7) / 8 * 8 * per_key);
        // Rewind into the middle of a tile and write different keys there.
        cache.truncate(21);
        QCOMPARE(cache.size(), int64_t(21));
        const auto other = random_normal(static_cast<size_t>(5 * dim), 12);
        QVERIFY(cache.append(1, other.data(), 5).has_value());
        cache.commit(5);
        for (int64_t p = 0; p < 26; ++p) {
            cache.read(1, p, got.data());
            const float* src = p < 21 ? rows.data() + p * dim : other.data() + (p - 21) * dim;
            QVERIFY(got == stored_value(t, src, dim));
        }
        cache.clear();
        QCOMPARE(cache.size(), int64_t(0));
    }

    void bf16IsStoredAsF16() {
        IndexKeyCache cache(1, 64, 8, KvType::BF16);
        QCOMPARE(cache.type(), KvType::F16);
    }

    void scoreKernelsMatchReference_data() {
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("dim");
        for (KvType t : {KvType::F32, KvType::F16, KvType::Q8_0})
            for (int h : {1, 4, 5, 16})
                for (int dim : {64, 48, 128})
                    QTest::newRow(QStringLiteral("%1 h%2 d%3")
                                      .arg(kv_type_name(t))
                                      .arg(h)
                                      .arg(dim)
                                      .toLatin1())
                        << int(t) << h << dim;
    }
    void scoreKernelsMatchReference() {
        QFETCH(int, type);
        QFETCH(int, heads);
        QFETCH(int, dim);
        const KvType t = static_cast<KvType>(type);
        const int64_t n = 101, H = heads; // 13 tiles, the last one partial
        const auto rows = random_normal(static_cast<size_t>(n * dim), 21);
        const auto q = random_normal(static_cast<size_t>(H * dim), 22);
        const auto w = random_normal(static_cast<size_t>(H), 23, 0.3f);
        IndexKeyCache cache(1, static_cast<uint32_t>(dim), n, t);
        QVERIFY(cache.append(0, rows.data(), n).has_value());
        cache.commit(n);
        IndexQueryBuffer buf;
        const IndexQuery iq = make_index_query(cache.format(), q.data(), w.data(), H, dim, buf);
        const int64_t nt = (n + 7) / 8;
        std::vector<float> ref(static_cast<size_t>(nt * 8)), fast(ref.size());
        index_score_kernel(KernelPath::Reference, cache.format())(iq, cache.tiles(0), nt,
                                                                  ref.data());
        index_score_kernel(KernelPath::Avx2, cache.format())(iq, cache.tiles(0), nt, fast.data());
        // The formula in float64 on what the kernels see: the stored keys and, for q8_0 keys,
        // the int8 queries times their scales.
        std::vector<double> qd(static_cast<size_t>(H * dim));
        for (int64_t h = 0; h < H; ++h)
            for (int64_t d = 0; d < dim; ++d)
                qd[h * dim + d] = t == KvType::Q8_0 ? double(iq.q8[h * iq.sdim + d]) *
                                                          iq.q8_d[h * iq.sdim / 32 + d / 32]
                                                    : double(q[h * dim + d]);
        double max_rel = 0, max_fast = 0;
        std::vector<float> key(static_cast<size_t>(dim));
        for (int64_t s = 0; s < n; ++s) {
            cache.read(0, s, key.data());
            double exact = 0, mag = 0;
            for (int64_t h = 0; h < H; ++h) {
                double dot = 0, dmag = 0;
                for (int64_t d = 0; d < dim; ++d) {
                    dot += qd[h * dim + d] * key[d];
                    dmag += std::fabs(qd[h * dim + d] * key[d]);
                }
                exact += w[h] * std::max(dot, 0.0);
                mag += std::fabs(w[h]) * dmag;
            }
            max_rel = std::max(max_rel, std::fabs(ref[s] - exact) / mag);
            max_fast = std::max(max_fast, std::fabs(double(fast[s]) - ref[s]) / mag);
        }
        QVERIFY2(max_rel < 1e-6, qPrintable(QString::number(max_rel)));
        QVERIFY2(max_fast < 1e-6, qPrintable(QString::number(max_fast)));
        if (!avx2_kernels_available())
            qInfo("no AVX2 on this CPU: the reference was compared with itself");
        if (t == KvType::Q8_0) {
            // The VNNI kernel computes the same int32 block sums and the same float steps.
            if (!avx512_vnni_kernels_available())
                qInfo("no AVX-512 VNNI on this CPU: that q8_0 kernel was not run");
            else {
                const IndexScoreFn vnni_kernel =
                    index_score_kernel(KernelPath::Auto, cache.format());
                QVERIFY(vnni_kernel != index_score_kernel(KernelPath::Avx2, cache.format()));
                std::vector<float> vnni(ref.size(), -1.0f);
                vnni_kernel(iq, cache.tiles(0), nt, vnni.data());
                QVERIFY(std::memcmp(vnni.data(), fast.data(), vnni.size() * sizeof(float)) == 0);
            }
        }
    }

    void q8ScoresExactAtFullScale() {
        // Keys and queries of ±1 quantize to ±127 in every position: the largest block sums the
        // int8 kernels meet (AVX2 pair sums 2·127², VNNI 32·255·127 with the 128·Σq offset).
        const int64_t n = 64, H = 9, dim = 96;
        std::mt19937 rng(41);
        std::vector<float> rows(static_cast<size_t>(n * dim)), q(static_cast<size_t>(H * dim));
        for (float& v : rows)
            v = (rng() & 1) ? 1.0f : -1.0f;
        for (float& v : q)
            v = (rng() & 1) ? 1.0f : -1.0f;
        for (int64_t d = 0; d < dim; ++d) // one key equal to the query of head 0: the maximum
            rows[5 * dim + d] = q[d];
        std::vector<float> w(static_cast<size_t>(H), 1.0f);
        IndexKeyCache cache(1, dim, n, KvType::Q8_0);
        QVERIFY(cache.append(0, rows.data(), n).has_value());
        IndexQueryBuffer buf;
        const IndexQuery iq = make_index_query(cache.format(), q.data(), w.data(), H, dim, buf);
        std::vector<float> avx2(static_cast<size_t>(n)), vnni(avx2.size(), -1.0f);
        index_score_kernel(KernelPath::Avx2, cache.format())(iq, cache.tiles(0), n / 8,
                                                             avx2.data());
        const double d = 1.0 / 127.0; // fp16(1/127) squared, times the integer dot product
        const double dd = double(iq.q8_d[0]) * iq.q8_d[0];
        QVERIFY(std::fabs(iq.q8_d[0] - d) < 1e-5);
        for (int64_t s = 0; s < n; ++s) {
            double exact = 0;
            for (int64_t h = 0; h < H; ++h) {
                int64_t dot = 0;
                for (int64_t i = 0; i < dim; ++i)
                    dot += int64_t(iq.q8[h * iq.sdim + i]) * (rows[s * dim + i] > 0 ? 127 : -127);
                exact += std::max<double>(double(dot) * dd, 0.0);
            }
            QVERIFY2(std::fabs(avx2[s] - exact) <= 1e-5 * std::max(1.0, exact),
                     qPrintable(QStringLiteral("key %1: %2 vs %3").arg(s).arg(avx2[s]).arg(exact)));
        }
        QVERIFY(avx2[5] >= 127.0f * 127.0f * dim * dd * 0.999); // head 0 alone gives the maximum
        if (!avx512_vnni_kernels_available())
            QSKIP("no AVX-512 VNNI on this CPU");
        index_score_kernel(KernelPath::Auto, cache.format())(iq, cache.tiles(0), n / 8,
                                                             vnni.data());
        QVERIFY(std::memcmp(vnni.data(), avx2.data(), vnni.size() * sizeof(float)) == 0);
    }

    void q8QueriesStayCloseToFloat() {
        // Accuracy of q8_0 keys with int8 queries against f32 keys and queries (documented in
        // docs/ARCHITECTURE.md): relative to the typical score magnitude.
        const int64_t n = 4096, H = 4, dim = 64;
        const auto rows = random_normal(static_cast<size_t>(n * dim), 31);
        const auto q = random_normal(static_cast<size_t>(H * dim), 32);
        const auto w = random_normal(static_cast<size_t>(H), 33, 0.3f);
        std::vector<std::vector<float>> out;
        for (KvType t : {KvType::F32, KvType::F16, KvType::Q8_0}) {
            IndexKeyCache cache(1, dim, n, t);
            QVERIFY(cache.append(0, rows.data(), n).has_value());
            IndexQueryBuffer buf;
            const IndexQuery iq = make_index_query(cache.format(), q.data(), w.data(), H, dim, buf);
            out.emplace_back(static_cast<size_t>(n));
            index_score_kernel(KernelPath::Auto, cache.format())(iq, cache.tiles(0), n / 8,
                                                                 out.back().data());
        }
        double rms = 0;
        for (float v : out[0])
            rms += double(v) * v;
        rms = std::sqrt(rms / n);
        for (int i : {1, 2}) {
            double err = 0;
            for (int64_t s = 0; s < n; ++s)
                err = std::max(err, std::fabs(double(out[i][s]) - out[0][s]));
            qInfo("%s keys: max |score - f32 score| = %.3g of rms score %.3g (%.2g%%)",
                  i == 1 ? "f16" : "q8_0", err, rms, 100 * err / rms);
            QVERIFY(err < (i == 1 ? 2e-3 : 5e-2) * rms);
        }
    }

    void topKMatchesReference() {
        std::mt19937 rng(41);
        std::vector<std::pair<float, int32_t>> pairs;
        TopKScratch work;
        int cases = 0, split_cases = 0, recollected = 0;
        for (int64_t n : {1, 2, 7, 100, 4095, 4096, 5000, 33000, 70001}) {
            for (int pattern = 0; pattern < 7; ++pattern) {
                std::vector<float> s(static_cast<size_t>(n));
                std::uniform_int_distribution<int> few(-3, 3);
                std::normal_distribution<float> nd(0.0f, 1.0f);
                for (int64_t i = 0; i < n; ++i) {
                    switch (pattern) {
                    case 0:
                        s[i] = nd(rng);
                        break; // distinct
                    case 1:
                        s[i] = float(few(rng));
                        break; // heavy ties
                    case 2:
                        s[i] = (i % 2) ? 0.0f : -0.0f;
                        break; // ±0 are equal
                    case 3:
                        s[i] = float(i);
                        break; // ascending
                    case 4:
                        s[i] = float(n - i);
                        break; // descending
                    case 5:
                        s[i] = 1.5f;
                        break; // constant
                    default:
                        s[i] = (i % 64 == 0) ? 9.0f : nd(rng);
                        break; // fools a strided sample
                    }
                }
                for (int64_t k :
                     {int64_t(1), int64_t(2), int64_t(17), int64_t(2048), n - 1, n, n + 5}) {
                    if (k < 1)
                        continue;
                    const int64_t m = std::min(k, n);
                    std::vector<int32_t> a(static_cast<size_t>(m)), b(static_cast<size_t>(m));
                    select_top_k_reference(s.data(), n, k, pairs, a.data());
                    select_top_k(s.data(), n, k, work, b.data());
                    QVERIFY2(
                        a == b,
                        qPrintable(
                            QStringLiteral("n %1 k %2 pattern %3").arg(n).arg(k).arg(pattern)));
                    ++cases;
                    if (k >= n)
                        continue;
                    // Split over threads as in decode: parts of uneven length in order.
                    for (int n_parts : {2, 3, 7}) {
                        std::vector<TopKCandidates> parts(static_cast<size_t>(n_parts));
                        for (int p = 0; p < n_parts; ++p)
                            collect_top_k_candidates(s.data(), n * p * p / (n_parts * n_parts),
                                                     n * (p + 1) * (p + 1) / (n_parts * n_parts), n,
                                                     k, parts[p]);
                        // Did some part miss a member of the top k (the merge must recollect)?
                        std::vector<char> kept(static_cast<size_t>(n), 0);
                        for (const TopKCandidates& part : parts)
                            for (int64_t i = 0; i < part.count; ++i)
                                kept[part.pos[i]] = 1;
                        for (int32_t i : a)
                            if (!kept[i]) {
                                ++recollected;
                                break;
                            }
                        std::fill(b.begin(), b.end(), -1);
                        select_top_k_of_parts(s.data(), k, parts.data(), n_parts, work.hist,
                                              b.data());
                        QVERIFY2(a == b, qPrintable(QStringLiteral("n %1 k %2 pattern %3 parts %4")
                                                        .arg(n)
                                                        .arg(k)
                                                        .arg(pattern)
                                                        .arg(n_parts)));
                        ++split_cases;
                    }
                }
            }
        }
        qInfo("%d top-k cases equal, %d split over threads (%d with a part that missed some of "
              "the top k at first)",
              cases, split_cases, recollected);
        QVERIFY(recollected > 0);
    }

    void mqaRowsKernelFollowsTheCpu() {
        // Auto takes the AVX-512 kernel where the CPU has it (else the comparisons below would
        // test the AVX2 kernel twice), the AVX2 one when asked for.
        if (avx512_vnni_kernels_available())
            QVERIFY(mqa_rows_kernel(KernelPath::Auto) == &avx512::mqa_rows);
        if (avx2_kernels_available())
            QVERIFY(mqa_rows_kernel(KernelPath::Avx2) == &avx2::mqa_rows);
        QVERIFY(mqa_rows_kernel(KernelPath::Reference) == &ref::mqa_rows);
    }
    void sparseAttentionMatchesPlainSoftmax() {
        // Decode over top_k selected rows (read in place from f32 cache blocks), single-threaded
        // and split across threads, on the reference, the AVX2 and (under Auto, where the CPU
        // has it) the AVX-512 kernels, against softmax attention written out in double.
        // d = 160 / dv = 128 are the kimi-hybrid small shapes, 288 / 256 deepseek2's; d = 40
        // takes the AVX-512 kernel's fallback (not a multiple of 16), d = 36 the AVX2 kernel's
        // (not a multiple of 8). An odd head count leaves the AVX-512 kernel a lone last head;
        // n = 7 and 9 are short batches of both kernels.
        for (const auto& dims :
             {std::pair<int64_t, int64_t>{160, 128}, {288, 256}, {96, 64}, {40, 24}, {36, 20}}) {
            const int64_t d = dims.first, dv = dims.second; // (lambdas cannot capture bindings)
            for (const int64_t n : {int64_t(1), int64_t(7), int64_t(9), int64_t(2048)}) {
                const int64_t n_rows = 9000, H = d == 96 || d == 40 ? 7 : 8;
                const auto rows = random_normal(static_cast<size_t>(n_rows * d), 51);
                const auto q = random_normal(static_cast<size_t>(H * d), 52);
                std::vector<int32_t> keys(static_cast<size_t>(n));
                for (int64_t j = 0; j < n; ++j)
                    keys[j] = static_cast<int32_t>((j * 4391) % n_rows);
                std::sort(keys.begin(), keys.end());
                const float scale = 0.3f;

                std::vector<double> plain(static_cast<size_t>(H * dv), 0.0);
                for (int64_t h = 0; h < H; ++h) {
                    std::vector<double> sc(static_cast<size_t>(n));
                    double mx = -1e300, sum = 0;
                    for (int64_t j = 0; j < n; ++j) {
                        double dot = 0;
                        for (int64_t i = 0; i < d; ++i)
                            dot += double(q[h * d + i]) * rows[keys[j] * d + i];
                        sc[j] = dot * scale;
                        mx = std::max(mx, sc[j]);
                    }
                    for (int64_t j = 0; j < n; ++j)
                        sum += sc[j] = std::exp(sc[j] - mx);
                    for (int64_t j = 0; j < n; ++j)
                        for (int64_t i = 0; i < dv; ++i)
                            plain[h * dv + i] += sc[j] / sum * rows[keys[j] * d + i];
                }

                SelectedAttention a;
                a.q = q.data();
                a.q_stride = d;
                a.n_heads = H;
                a.dqk = d;
                KvView view; // the rows as f32 cache blocks of 64
                view.n_rows = n_rows;
                view.row_floats = d;
                view.row_bytes = sizeof(float) * d;
                for (int64_t b = 0; b < view.n_blocks(); ++b)
                    view.raw.push_back(reinterpret_cast<const uint8_t*>(rows.data() + b * 64 * d));
                a.kv = &view;
                a.dv = dv;
                a.keys = keys.data();
                a.n_keys = n;
                a.scale = scale;
                a.out_stride = dv;
                std::vector<float> out(static_cast<size_t>(H * dv));
                a.out = out.data();
                constexpr float kUntouched = -1.0f;
                auto check = [&](const char* what) {
                    double err = 0, mag = 0;
                    for (size_t i = 0; i < out.size(); ++i) {
                        err = std::max(err, std::fabs(out[i] - plain[i]));
                        mag = std::max(mag, std::fabs(plain[i]));
                    }
                    return err <= 1e-5 * std::max(mag, 1.0)
                               ? QString()
                               : QStringLiteral("%1 d %2 n %3: error %4 of %5")
                                     .arg(what)
                                     .arg(d)
                                     .arg(n)
                                     .arg(err)
                                     .arg(mag);
                };
                for (KernelPath path :
                     {KernelPath::Reference, KernelPath::Avx2, KernelPath::Auto}) {
                    a.path = path;
                    SelectedScratch scratch;
                    std::fill(out.begin(), out.end(), -1.0f);
                    attend_selected(a, scratch);
                    QString e = check("single");
                    QVERIFY2(e.isEmpty(), qPrintable(e));
                    // Decode splits the heads over the threads at few keys: a subset of the
                    // heads gives those heads' bits of the whole run.
                    const std::vector<float> whole = out;
                    for (int64_t h0 = 0; h0 < H; h0 += 2) {
                        SelectedAttention part = a;
                        part.q += h0 * a.q_stride;
                        part.out += h0 * a.out_stride;
                        part.n_heads = std::min<int64_t>(2, H - h0);
                        std::fill(out.begin(), out.end(), -1.0f);
                        attend_selected(part, scratch);
                        for (int64_t i = 0; i < H * dv; ++i) {
                            const bool mine = i >= h0 * dv && i < (h0 + part.n_heads) * dv;
                            QCOMPARE(
                                std::memcmp(&out[i], mine ? &whole[i] : &kUntouched, sizeof(float)),
                                0);
                        }
                    }
                    for (int parts : {2, 3}) {
                        std::fill(out.begin(), out.end(), -1.0f);
                        attend_selected_split(a, parts);
                        e = check("split");
                        QVERIFY2(e.isEmpty(), qPrintable(e));
                    }
                }
            }
        }
    }

    void selectionMatchesPerQueryReference_data() {
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("keys");
        QTest::addColumn<int>("queries");
        for (KvType t : {KvType::F32, KvType::F16, KvType::Q8_0}) {
            // Prefill: blocks of queries over several key chunks, the last block partial, and
            // queries whose key counts end mid-tile and mid-chunk.
            for (int threads : {1, 2, 3})
                QTest::newRow(
                    QStringLiteral("%1 prefill t%2").arg(kv_type_name(t)).arg(threads).toLatin1())
                    << int(t) << threads << 1060 << 69; // tiles 124 .. 133: chunk edge at 128
            // Decode: one query, its keys split over the threads.
            QTest::newRow(QStringLiteral("%1 decode").arg(kv_type_name(t)).toLatin1())
                << int(t) << 2 << 5003 << 1;
        }
    }
    void selectionMatchesPerQueryReference() {
        // select_index_keys against scoring each query alone over all its keys (the same score
        // kernel) and the nth_element reference of the top-k rule.
        QFETCH(int, type);
        QFETCH(int, threads);
        QFETCH(int, keys);
        QFETCH(int, queries);
        const KvType t = static_cast<KvType>(type);
        const int64_t n = keys, ns = queries, H = 5, dim = 48, top_k = 100;
        const auto rows = random_normal(static_cast<size_t>(n * dim), 31);
        const auto q = random_normal(static_cast<size_t>(ns * H * dim), 32);
        const auto w = random_normal(static_cast<size_t>(ns * H), 33, 0.3f);
        IndexKeyCache cache(1, static_cast<uint32_t>(dim), n, t);
        QVERIFY(cache.append(0, rows.data(), n).has_value());
        cache.commit(n);
        const IndexQueries iq{q.data(), w.data(), ns, H, dim, n - ns + 1};
        const KernelContext kctx{threads, KernelPath::Auto};
        IndexSelectScratch scratch;
        std::vector<int32_t> got(static_cast<size_t>(ns * top_k), -1);
        select_index_keys(cache.format(), cache.tiles(0), iq, top_k, kctx, scratch, got.data());

        const IndexScoreFn score = index_score_kernel(KernelPath::Auto, cache.format());
        std::vector<std::pair<float, int32_t>> work;
        std::vector<int32_t> want(static_cast<size_t>(top_k));
        for (int64_t i = 0; i < ns; ++i) {
            const int64_t n_vis = n - ns + 1 + i, nt = (n_vis + 7) / 8;
            IndexQueryBuffer buf;
            const IndexQuery one = make_index_query(cache.format(), q.data() + i * H * dim,
                                                    w.data() + i * H, H, dim, buf);
            std::vector<float> sc(static_cast<size_t>(nt * 8));
            score(one, cache.tiles(0), nt, sc.data());
            select_top_k_reference(sc.data(), n_vis, top_k, work, want.data());
            QVERIFY2(std::equal(want.begin(), want.end(), got.begin() + i * top_k),
                     qPrintable(QStringLiteral("query %1 of %2").arg(i).arg(ns)));
            QVERIFY(want.back() < n_vis);
        }
    }

    void indexTypesOnGoldens_data() {
        QTest::addColumn<int>("type");
        for (KvType t : {KvType::F32, KvType::F16, KvType::Q8_0})
            QTest::newRow(kv_type_name(t)) << int(t);
    }
    void indexTypesOnGoldens() {
        // ds32-f32 (top_k 32, so every position past 32 is sparse) with each index-key type.
        // F32 must keep the F32 criterion (1e-4, argmax equal everywhere); f16 / q8_0 change
        // which near-tied keys are selected, so they are reported and held to sanity bounds.
        QFETCH(int, type);
        const KvType t = static_cast<KvType>(type);
        FOLIO_REQUIRE_CONFORMANCE(dir);
        test::Golden g = test::loadGolden(dir, QStringLiteral("ds32-f32"));
        QVERIFY(g.n_vocab > 0);
        auto m = test::loadDecoder(g.modelPath);
        QVERIFY(m);
        for (const auto& s : g.sequences) {
            for (bool seq : {false, true}) {
                const auto c = test::compareLogits(
                    test::evaluateAll(*m, s.tokens, seq, MlaForm::Auto, 2, nullptr, t), s.logits,
                    g.n_vocab);
                qInfo("ds32-f32 index %s %s %s: max |diff| %.3g, mean row max %.3g, argmax %d/%d",
                      kv_type_name(t), qPrintable(s.name), seq ? "seq" : "batch", c.maxAbsDiff,
                      c.meanRowMax, c.argmaxAgree, c.rows);
                if (t == KvType::F32) {
                    QVERIFY(c.maxAbsDiff <= 1e-4);
                    QCOMPARE(c.argmaxAgree, c.rows);
                } else {
                    QVERIFY(c.meanRowMax <= 0.5);
                    QVERIFY(c.argmaxAgree >= 0.8 * c.rows);
                }
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestDsaIndexer)
#include "test_dsa_indexer.moc"
