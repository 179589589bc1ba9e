import { Router } from "express";

const router = Router();

  // OPERATOR_BEGIN api-routes
router.get("/health", health);
router.get("/users", listUsers);
  // OPERATOR_END api-routes

function health(req, res) {
	//OPERATOR_BEGIN health-body
	//OPERATOR_END   health-body
}
// OPERATOR_BEGIN is how a region starts: prose in a comment is not a marker
export default router;
