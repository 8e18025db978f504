// The device planner (backend/device_plan.h): every layer placed, a layer's weights, KV and
// compute together, a small second device filled from the last layer down within its memory,
// the host taking the rest; and the CPU device as the loader uses it.
#include <QtTest>

#include "backend/cpu_device.h"
#include "backend/device_plan.h"
#include "model/decoder/decoder_model.h"
#include "support/test_support.h"

#include <memory>
#include <vector>

using namespace folio;

namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

// A device with a fixed memory that places nothing itself (the planner only asks its name and
// memory).
class FakeDevice final : public Device {
public:
    FakeDevice(std::string name, int64_t memory) : name_(std::move(name)), memory_(memory) {}
    std::string name() const override { return name_; }
    int64_t memory_bytes() const override { return memory_; }
    Expected<TensorView> place_weight(const TensorView& host, uint64_t bytes) override {
        placed_ += bytes;
        return host;
    }
    uint64_t weight_bytes() const override { return placed_; }
    std::shared_ptr<BlockPool> make_kv_pool(const PoolConfig& c) const override {
        return std::make_shared<BlockPool>(c);
    }

private:
    std::string name_;
    int64_t memory_;
    uint64_t placed_ = 0;
};

// n layers of 10 MiB weights and 1 KiB of KV per token.
PlanInput uniform_layers(size_t n, int64_t context) {
    PlanInput in;
    in.layers.assign(n, LayerNeeds{10 * kMiB, 1024, 0});
    in.io_weight_bytes = 50 * kMiB;
    in.context_tokens = context;
    return in;
}

void check_every_layer_on_one_device(const DevicePlan& p, size_t n_devices) {
    for (const LayerPlacement& l : p.layers) {
        QVERIFY(l.weights < n_devices);
        QCOMPARE(l.kv, l.weights);
        QCOMPARE(l.compute, l.weights);
    }
}

} // namespace

class TestDevicePlan : public QObject {
    Q_OBJECT

private slots:
    void cpuAloneHoldsEverything() {
        CpuDevice cpu;
        auto plan = plan_devices(uniform_layers(27, 4096), {&cpu});
        QVERIFY(plan);
        QCOMPARE(plan->layers.size(), size_t{27});
        check_every_layer_on_one_device(*plan, 1);
        for (const LayerPlacement& l : plan->layers)
            QCOMPARE(l.weights, 0u);
        QCOMPARE(plan->io, 0u);
        QCOMPARE(plan->weight_bytes[0], 27 * 10 * kMiB + 50 * kMiB);
        QCOMPARE(plan->kv_bytes[0], uint64_t{27} * 1024 * 4096);
        const std::string d = plan->describe();
        QVERIFY2(d.rfind("cpu: layers 0-26, embeddings and output; weights", 0) == 0, d.c_str());
        QVERIFY2(d.find("at 4096 tokens") != std::string::npos, d.c_str());
    }

    void smallDeviceTakesTheLastLayersWithinItsMemory() {
        CpuDevice cpu;
        // 4 MiB of KV per layer at 4096 tokens: 14 MiB a layer; 45 MiB hold three layers.
        FakeDevice gpu("fake-gpu", 45 * kMiB);
        auto plan = plan_devices(uniform_layers(8, 4096), {&gpu, &cpu});
        QVERIFY(plan);
        QCOMPARE(plan->layers.size(), size_t{8});
        check_every_layer_on_one_device(*plan, 2);
        QCOMPARE(plan->io, 1u); // the host: the first device without a memory bound
        for (size_t il = 0; il < 8; ++il)
            QCOMPARE(plan->layers[il].weights, il >= 5 ? 0u : 1u);
        QVERIFY(plan->weight_bytes[0] + plan->kv_bytes[0] <= 45 * kMiB);
        QCOMPARE(plan->weight_bytes[0], 30 * kMiB);
        QCOMPARE(plan->weight_bytes[1], 5 * 10 * kMiB + 50 * kMiB);
        const std::string d = plan->describe();
        QVERIFY2(d.find("fake-gpu: layers 5-7;") != std::string::npos, d.c_str());
        QVERIFY2(d.find("cpu: layers 0-4, embeddings and output;") != std::string::npos, d.c_str());
    }

    void devicesFillInTheOrderGiven() {
        CpuDevice cpu;
        FakeDevice a("a", 30 * kMiB), b("b", 1 * kMiB), c("c", 60 * kMiB);
        auto plan = plan_devices(uniform_layers(10, 0), {&cpu, &a, &b, &c});
        QVERIFY(plan);
        check_every_layer_on_one_device(*plan, 4);
        // a: layers 7-9 (30 MiB), b: nothing fits, c: 6 layers (1-6), the host: layer 0.
        QCOMPARE(plan->layers[9].weights, 1u);
        QCOMPARE(plan->layers[7].weights, 1u);
        QCOMPARE(plan->layers[6].weights, 3u);
        QCOMPARE(plan->layers[1].weights, 3u);
        QCOMPARE(plan->layers[0].weights, 0u);
        QCOMPARE(plan->weight_bytes[2], uint64_t{0});
        for (size_t d = 1; d < 4; ++d) {
            const int64_t memory = d == 1 ? 30 : d == 2 ? 1 : 60;
            QVERIFY(plan->weight_bytes[d] + plan->kv_bytes[d] <= uint64_t(memory) * kMiB);
        }
        QVERIFY(plan->describe().find("b:") == std::string::npos);
    }

    void noHostIsAnError() {
        FakeDevice gpu("fake-gpu", 1 << 30);
        QVERIFY(!plan_devices(uniform_layers(4, 16), {&gpu}));
    }

    void loaderPlacesEveryWeightThroughThePlannedCpu() {
        const std::string path =
            test::builtProgram(QStringLiteral("generated/models/demo-deepseek2.gguf"))
                .toStdString();
        auto model = load_decoder(path);
        QVERIFY2(model, model ? "" : model.error().to_string().c_str());
        const DecoderModel& m = **model;
        QCOMPARE(m.devices.size(), size_t{1});
        QCOMPARE(m.placement.layers.size(), size_t{m.config.n_layer});
        uint64_t file_tensors = 0;
        for (const auto& t : m.file->tensors())
            file_tensors += t.size_bytes;
        QCOMPARE(m.placement.weight_bytes[0], file_tensors);
        // Every bound tensor went through the device (the demo model binds all of its tensors).
        QCOMPARE(m.devices[0]->weight_bytes(), file_tensors);
        QCOMPARE(m.weights.token_embd.data,
                 static_cast<const void*>(m.file->find_tensor("token_embd.weight")->data));
        QCOMPARE(&decoder_kv_device(m), m.devices[0].get());
        const std::string d = m.placement.describe();
        QVERIFY2(d.rfind("cpu: layers 0-" + std::to_string(m.config.n_layer - 1) +
                             ", embeddings and output;",
                         0) == 0,
                 d.c_str());
    }

    void cpuDevicePlacesWeightsInPlaceAndCountsThem() {
        CpuDevice cpu;
        const float values[4] = {1, 2, 3, 4};
        const TensorView host = make_tensor_view(DType::F32, {4, 1, 1, 1}, values);
        auto placed = cpu.place_weight(host, sizeof values);
        QVERIFY(placed);
        QCOMPARE(placed->data, static_cast<const void*>(values));
        QCOMPARE(cpu.weight_bytes(), uint64_t{sizeof values});
        PoolConfig pc;
        pc.row_floats = 8;
        auto pool = cpu.make_kv_pool(pc);
        QVERIFY(pool != nullptr);
        QCOMPARE(pool->config().row_floats, int64_t{8});
    }
};

QTEST_GUILESS_MAIN(TestDevicePlan)
#include "test_device_plan.moc"
