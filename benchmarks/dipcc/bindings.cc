// pydipcc without torch: only what benchmarks/diplomacy_dipcc_runner.py calls.
// Built by benchmarks/dipcc/build.sh from dipcc's own sources (facebookresearch/
// diplomacy_cicero, dipcc/); its pybind.cc binds the model encoders too, which
// need torch.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "../cc/game.h"
#include "py_game_get_units.h"

namespace py = pybind11;
using namespace dipcc;

PYBIND11_MODULE(pydipcc, m) {
  py::class_<Game>(m, "Game")
      .def(py::init<int, bool>(), py::arg("draw_on_stalemate_years") = -1,
           py::arg("is_full_press") = true)
      .def_static("from_json", &Game::from_json)
      .def("to_json", &Game::to_json)
      .def("set_orders", &Game::set_orders)
      .def("process", &Game::process)
      .def("get_current_phase", &Game::get_phase_short)
      .def("get_units", &py_game_get_units, py::return_value_policy::move)
      .def("get_state", &Game::py_get_state, py::return_value_policy::move);
}
